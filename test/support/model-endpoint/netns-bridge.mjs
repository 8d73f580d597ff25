// Runs a command inside a network namespace that has only loopback, with 127.0.0.1:<port> forwarded
// to the Unix socket of a model endpoint outside it: the command reaches the endpoint and nothing else.
// usage: node netns-bridge.mjs <port> <socket path> <command> [args...]
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [port, socketPath, command, ...args] = process.argv.slice(2);
const server = createServer((client) => {
  const upstream = connect(socketPath);
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`netns-bridge: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)));
});
