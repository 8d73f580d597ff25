import { execFile } from 'node:child_process';
import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { trackWorkspace } from '../process/exit-cleanup.js';
import { createOwnedDir } from '../workspace/owned-dirs.js';
import { removeTree } from '../workspace/remove-tree.js';
import type { FamilyTask, ToolReply } from './task.js';
import { EXIT_CODES, type ToolCall } from './types.js';

// One server per family case, in the harness's process: the task's data lives in its memory only, and
// its call log is the one record of what the agent did with the tool.
//
// The tools are shell scripts, so that a call costs a shell and two tiny programs, not a Node start:
// they talk to the server through FIFOs, which a shell opens with a redirection. The FIFOs are in a
// directory of the harness's own beside the case area, never inside it: under bwrap the host is
// read-only, so the agent can open them but not replace them, and the server only ever opens files
// of that directory. A call takes a reply slot by making the slot's directory in the case area (an
// atomic `mkdir`), opens the slot's reply FIFO, writes `<slot> <tool> <arg>` to the request FIFO in
// one write (atomic below PIPE_BUF, so concurrent calls never mix), reads the reply and frees the slot.

/** Reply FIFOs: calls in flight at once, at most. */
export const TOOL_SLOTS = 128;
/** A request line longer than this is not a tool of ours talking (theirs stay below PIPE_BUF). */
const MAX_REQUEST_BYTES = 4096;
/** Replies are cut here, so that one always fits a FIFO's buffer and is written without blocking. */
const MAX_REPLY_CHARS = 16 * 1024;
/** Calls beyond this are refused and not logged, so an agent calling in a loop cannot fill the harness's memory. */
const MAX_LOGGED_CALLS = 100_000;

const run = promisify(execFile);

/** A running tool server of one case. */
export interface ToolServer {
  /** The directory of its FIFOs (`GZ_BENCH_TOOLS`). */
  dir: string;
  /** Where the tools take their reply slots (`GZ_BENCH_TOOL_SLOTS`), in the case area. */
  slotsDir: string;
  /** Every call answered so far, in the order they started. */
  calls(): readonly ToolCall[];
  /** Stops answering and removes the FIFOs' directory. */
  close(): Promise<void>;
}

/** Why a tool server could not start, for the case's failure message. */
export class ToolServerError extends Error {
  override name = 'ToolServerError';
}

/** Starts the tool server of `task`: its FIFOs in a fresh directory under `parent`, its slots at `slotsDir`. */
export async function startToolServer(task: FamilyTask, parent: string, slotsDir: string): Promise<ToolServer> {
  const dir = await createOwnedDir(parent, 'tools');
  // Removed should the harness exit before close(); the next run's cleanStaleAreas removes it after a kill.
  const untrack = trackWorkspace(dir);
  const removeDir = async (): Promise<void> => {
    await removeTree(dir);
    untrack();
  };
  let requests: Socket;
  try {
    // Node makes no FIFOs: one mkfifo for all of them.
    const fifos = ['requests', ...Array.from({ length: TOOL_SLOTS }, (_, slot) => `r${slot}`)];
    await run('mkfifo', ['-m', '600', ...fifos], { cwd: dir });
    mkdirSync(slotsDir, { recursive: true, mode: 0o700 });
    // Read and write: the FIFO never reads as ended while no tool has it open.
    const fd = openSync(join(dir, 'requests'), constants.O_RDWR | constants.O_NONBLOCK);
    requests = new Socket({ fd, readable: true, writable: false });
    // The directory is the harness's (0700 from mkdtemp); the agent runs as the same user.
    await chmod(dir, 0o700);
  } catch (error) {
    await removeDir();
    throw new ToolServerError(`the tool server could not make its FIFOs in ${dir} (${errorCode(error)})`);
  }
  const log = new CallLog(task, dir);
  log.serve(requests);
  let closed: Promise<void> | undefined;
  return {
    dir,
    slotsDir,
    calls: () => [...log.calls].sort((a, b) => a.startMs - b.startMs),
    close: () => {
      closed ??= (async () => {
        log.stop();
        requests.destroy();
        await removeDir();
      })();
      return closed;
    },
  };
}

/** Answers requests with the task's responder and logs every call with its time span. */
class CallLog {
  readonly calls: ToolCall[] = [];
  readonly #respond;
  readonly #holdMs: number;
  readonly #dir: string;
  readonly #origin = performance.now();
  readonly #timers = new Set<NodeJS.Timeout>();
  #stopped = false;

  constructor(task: FamilyTask, dir: string) {
    this.#respond = task.createResponder();
    this.#holdMs = task.holdMs;
    this.#dir = dir;
  }

  serve(requests: Socket): void {
    requests.on('error', () => {});
    requests.setEncoding('utf8');
    let received = '';
    requests.on('data', (chunk: string) => {
      received += chunk;
      for (let end = received.indexOf('\n'); end !== -1; end = received.indexOf('\n')) {
        const line = received.slice(0, end);
        received = received.slice(end + 1);
        this.#answer(line);
      }
      // No line end in sight: not a request of ours; what follows starts afresh.
      if (received.length > MAX_REQUEST_BYTES) received = '';
    });
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #now(): number {
    return Math.round((performance.now() - this.#origin) * 1000) / 1000;
  }

  #answer(line: string): void {
    if (this.#stopped) return;
    const startMs = this.#now();
    const request = parseRequest(line);
    // Without a slot there is nowhere to reply: nothing of ours sent it.
    if (request === undefined) return;
    if (request.tool === undefined) {
      this.#reply(request.slot, { kind: 'error', text: 'error: malformed request' });
      return;
    }
    if (this.calls.length >= MAX_LOGGED_CALLS) {
      this.#reply(request.slot, {
        kind: 'error',
        text: `error: more than ${MAX_LOGGED_CALLS} calls; no more are answered`,
      });
      return;
    }
    const { slot, tool, arg } = request;
    // Decided at once, in the order calls arrive; only the answer waits.
    const answer = this.#respond(tool, arg);
    const send = (): void => {
      if (this.#stopped) return;
      this.calls.push({ tool, arg, startMs, endMs: this.#now(), reply: answer.kind });
      this.#reply(slot, answer);
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

  /**
   * Writes `<exit> <lines>\n` and the text's lines to the slot's FIFO, without blocking: a tool that is
   * gone (no reader: ENXIO) gets nothing, and a reply always fits the FIFO's buffer.
   */
  #reply(slot: number, answer: ToolReply): void {
    const text = answer.text.length > MAX_REPLY_CHARS ? answer.text.slice(0, MAX_REPLY_CHARS) : answer.text;
    const lines = text.split('\n');
    let fd: number;
    try {
      fd = openSync(join(this.#dir, `r${slot}`), constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch {
      return;
    }
    try {
      if (fstatSync(fd).isFIFO()) writeSync(fd, `${EXIT_CODES[answer.kind]} ${lines.length}\n${lines.join('\n')}\n`);
    } catch {
      // The tool went away meanwhile.
    } finally {
      closeSync(fd);
    }
  }
}

/** `<slot> <tool> <arg>`: the slot alone when the rest is malformed, undefined without a slot. */
function parseRequest(line: string): { slot: number; tool?: string; arg: string } | undefined {
  const match = /^(\d{1,3}) (?:([a-z]+) (.*))?$/s.exec(line);
  if (match === null) return undefined;
  const slot = Number(match[1]);
  if (slot >= TOOL_SLOTS) return undefined;
  const [, , tool, arg] = match;
  return tool === undefined || arg === undefined || arg === '' ? { slot, arg: '' } : { slot, tool, arg };
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
