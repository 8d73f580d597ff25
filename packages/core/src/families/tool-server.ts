import { chmod } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { trackWorkspace } from '../process/exit-cleanup.js';
import { createOwnedDir } from '../workspace/owned-dirs.js';
import { removeTree } from '../workspace/remove-tree.js';
import type { FamilyTask, ToolReply } from './task.js';
import { EXIT_CODES, type ToolCall } from './types.js';

// One server per family case, in the harness's process: the task's data lives in its memory only, and
// its call log is the one record of what the agent did with the tool. Its socket is in a directory of
// its own beside the case area, never inside it: under bwrap the host is read-only, so the agent can
// connect to the socket but not replace it or add files next to it.

/** The longest Unix socket path Linux takes (sun_path is 108 bytes, NUL included). */
const MAX_SOCKET_PATH_BYTES = 107;
/** A request is one short JSON line; anything longer is not a tool of ours talking. */
const MAX_REQUEST_BYTES = 4096;
/** Calls beyond this are refused and not logged, so an agent calling in a loop cannot fill the harness's memory. */
const MAX_LOGGED_CALLS = 100_000;
/** Connections open at once, and how long one may stay silent: idle connections cannot use up the harness's files. */
const MAX_CONNECTIONS = 256;
const IDLE_TIMEOUT_MS = 10_000;

/** A running tool server of one case. */
export interface ToolServer {
  /** What the tools connect to (`GZ_BENCH_TOOL_SOCKET`). */
  socketPath: string;
  /** Every call answered so far, in the order they started. */
  calls(): readonly ToolCall[];
  /** Stops answering, ends open connections and removes the socket's directory. */
  close(): Promise<void>;
}

/** Why a tool server could not start, for the case's failure message. */
export class ToolServerError extends Error {
  override name = 'ToolServerError';
}

/** Starts the tool server of `task` with its socket in a fresh directory under `parent`. */
export async function startToolServer(
  task: FamilyTask,
  parent: string,
  options: { idleTimeoutMs?: number } = {},
): Promise<ToolServer> {
  const dir = await createOwnedDir(parent, 'tools');
  // Removed should the harness exit before close(); the next run's cleanStaleAreas removes it after a kill.
  const untrack = trackWorkspace(dir);
  const socketPath = join(dir, 's');
  const removeDir = async (): Promise<void> => {
    await removeTree(dir);
    untrack();
  };
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    await removeDir();
    throw new ToolServerError(
      `the tool server's socket path ${socketPath} is longer than ${MAX_SOCKET_PATH_BYTES} bytes: set TMPDIR to a shorter directory`,
    );
  }
  const log = new CallLog(task, options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
  const server = createServer((socket) => log.serve(socket));
  server.maxConnections = MAX_CONNECTIONS;
  try {
    await listen(server, socketPath);
    // The directory is the harness's (0700 from mkdtemp); the agent runs as the same user.
    await chmod(dir, 0o700);
  } catch (error) {
    server.close();
    await removeDir();
    throw new ToolServerError(`the tool server could not listen on ${socketPath} (${errorCode(error)})`);
  }
  let closed: Promise<void> | undefined;
  return {
    socketPath,
    calls: () => [...log.calls].sort((a, b) => a.startMs - b.startMs),
    close: () => {
      closed ??= (async () => {
        log.stop();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await removeDir();
      })();
      return closed;
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Answers requests with the task's responder and logs every call with its time span. */
class CallLog {
  readonly calls: ToolCall[] = [];
  readonly #respond;
  readonly #holdMs: number;
  readonly #idleTimeoutMs: number;
  readonly #origin = performance.now();
  readonly #open = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #stopped = false;

  constructor(task: FamilyTask, idleTimeoutMs: number) {
    this.#respond = task.createResponder();
    this.#holdMs = task.holdMs;
    this.#idleTimeoutMs = idleTimeoutMs;
  }

  serve(socket: Socket): void {
    if (this.#stopped) {
      socket.destroy();
      return;
    }
    this.#open.add(socket);
    socket.on('close', () => this.#open.delete(socket));
    socket.on('error', () => {});
    socket.setTimeout(this.#idleTimeoutMs, () => socket.destroy());
    socket.setEncoding('utf8');
    let received = '';
    const onData = (chunk: string): void => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end === -1) {
        if (received.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      this.#answer(socket, received.slice(0, end));
    };
    socket.on('data', onData);
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const socket of this.#open) socket.destroy();
  }

  #now(): number {
    return Math.round((performance.now() - this.#origin) * 1000) / 1000;
  }

  #answer(socket: Socket, line: string): void {
    const startMs = this.#now();
    const request = parseRequest(line);
    if (request === undefined) {
      reply(socket, { kind: 'error', text: 'error: malformed request' });
      return;
    }
    if (this.calls.length >= MAX_LOGGED_CALLS) {
      reply(socket, { kind: 'error', text: `error: more than ${MAX_LOGGED_CALLS} calls; no more are answered` });
      return;
    }
    // Decided at once, in the order calls arrive; only the answer waits.
    const answer = this.#respond(request.tool, request.arg);
    const send = (): void => {
      if (this.#stopped) return;
      this.calls.push({ tool: request.tool, arg: request.arg, startMs, endMs: this.#now(), reply: answer.kind });
      reply(socket, answer);
    };
    if (this.#holdMs <= 0) {
      send();
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      send();
    }, this.#holdMs);
    this.#timers.add(timer);
  }
}

function parseRequest(line: string): { tool: string; arg: string } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const { tool, arg } = value as Record<string, unknown>;
    return typeof tool === 'string' && typeof arg === 'string' ? { tool, arg } : undefined;
  } catch {
    return undefined;
  }
}

function reply(socket: Socket, answer: ToolReply): void {
  socket.end(`${JSON.stringify({ text: answer.text, exit: EXIT_CODES[answer.kind] })}\n`);
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
