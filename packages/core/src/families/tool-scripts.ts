/** The variable that tells a family's tools where the case's tool server listens. */
export const TOOL_SOCKET_ENV = 'GZ_BENCH_TOOL_SOCKET';

/**
 * The program `tools/<name>` in a family workspace: a thin client that sends its one argument to the
 * case's tool server and prints the reply. It holds nothing of the task, so the same file serves
 * every seed and size. CommonJS on purpose: a file without an extension is read as CommonJS.
 */
export function toolScript(name: string): string {
  return `#!/usr/bin/env node
// ${name}: a tool of a gz-bench task. It asks the harness, which holds the task's data, and prints the reply.
'use strict';
const net = require('node:net');
const tool = ${JSON.stringify(name)};
const socketPath = process.env.${TOOL_SOCKET_ENV};
const args = process.argv.slice(2);
if (args.length !== 1 || args[0] === '') {
  process.stderr.write('usage: ' + tool + ' ARG\\n');
  process.exit(2);
}
if (!socketPath) {
  process.stderr.write(tool + ': ${TOOL_SOCKET_ENV} is not set: this tool works only inside its gz-bench case\\n');
  process.exit(2);
}
const connection = net.createConnection(socketPath);
let received = '';
connection.setEncoding('utf8');
connection.on('connect', () => connection.write(JSON.stringify({ tool, arg: args[0] }) + '\\n'));
connection.on('data', (chunk) => { received += chunk; });
connection.on('error', (error) => {
  process.stderr.write(tool + ': cannot reach the task server (' + (error.code || error.message) + ')\\n');
  process.exit(3);
});
connection.on('end', () => {
  let reply;
  try { reply = JSON.parse(received); } catch { reply = undefined; }
  if (!reply || typeof reply.text !== 'string') {
    process.stderr.write(tool + ': the task server gave no reply\\n');
    process.exit(3);
  }
  (reply.exit === 0 ? process.stdout : process.stderr).write(reply.text + '\\n');
  process.exitCode = reply.exit;
});
`;
}
