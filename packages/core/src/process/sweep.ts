import { randomBytes } from 'node:crypto';
import { setTimeout as delay, setImmediate as yieldToLoop } from 'node:timers/promises';
import { listPids, readProcFile } from './proc-read.js';
import { isRunningState, parseStat } from './proc-stat.js';

export { type ProcessStat, parseStat, readProcessStat } from './proc-stat.js';

// Process groups miss descendants that call setsid() or double-fork; environment variables do not,
// since every child inherits its parent's environment unless it is explicitly replaced. So every command
// of a case runs with a random token in its environment, and the sweep kills whatever carries it.
//
// Limitations, by design of this layer (a sandbox or cgroup is the real boundary for untrusted agents):
// - Linux only: it reads /proc. Elsewhere the sweep finds nothing and returns [].
// - A process that exec()s with a scrubbed environment (`env -i`, `execve(…, envp = {})`) or overwrites
//   its environment block in memory no longer carries the token and escapes. So does one that makes
//   itself non-dumpable (prctl PR_SET_DUMPABLE 0): its /proc/<pid>/environ becomes unreadable (EACCES).
// - As a non-root user, only processes of that user are readable and killable; others are skipped.
// - A pid is checked and then killed by number: a process that exits and whose pid is reused by an
//   unrelated process in that instant would be hit. With 128-bit tokens and millisecond gaps this
//   needs pid wrap-around inside the gap.
//
// Cost: one pass reads a small file per process on the machine, so it is used only where no pid
// namespace contains a case's commands (see command-launch.ts), and run as rarely as correctness
// allows (see case/leftover-sweep.ts). A pass skips processes that started before the case, by their
// start time in /proc/<pid>/stat, before reading the (costlier) environment; and it reads with plain
// synchronous calls, a batch at a time, which costs a fraction of one asynchronous read per file.

/** Name of the environment variable that carries a case's token into every command it runs. */
export const CASE_TOKEN_ENV = 'GZ_BENCH_CASE_TOKEN';

/** How long `killByToken` keeps sweeping by default. */
export const DEFAULT_SWEEP_TIMEOUT_MS = 5000;

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
const POLL_MS = 10;

/** A fresh random 128-bit case token, as 32 lowercase hex digits. */
export function newCaseToken(): string {
  return randomBytes(16).toString('hex');
}

/** True for strings shaped like `newCaseToken()`'s: anything looser could match unrelated processes. */
export function isCaseToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}

/** Options of `killByToken`. */
export interface KillByTokenOptions {
  /** Stop sweeping after this many milliseconds, even if token carriers remain. @default 5000 */
  timeoutMs?: number;
  /**
   * Clock ticks after boot (as /proc/<pid>/stat field 22, see `clockTicksNow`) before which no carrier
   * can have started, such as the start of its case: older processes are skipped unread. @default 0
   */
  startedAfter?: number;
}

/**
 * SIGKILLs every process whose environment holds `GZ_BENCH_CASE_TOKEN=<token>` exactly, sweeping /proc
 * again until a sweep finds none (a dying daemon may fork between sweeps) or the timeout passes.
 * Never signals the current process or its ancestors. Returns the pids it killed; [] without /proc.
 */
export function killByToken(token: string, options: KillByTokenOptions = {}): Promise<number[]> {
  return killByTokens([token], options);
}

/** `killByToken` for several tokens in one pass over /proc per sweep. */
export async function killByTokens(tokens: readonly string[], options: KillByTokenOptions = {}): Promise<number[]> {
  const needles = tokens.map(tokenNeedle);
  if (process.platform !== 'linux' || needles.length === 0) return [];
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_SWEEP_TIMEOUT_MS);
  const startedAfter = options.startedAfter ?? 0;
  const killed = new Set<number>();
  for (;;) {
    const carriers = await findCarriers(needles, startedAfter);
    if (carriers.length === 0) break;
    for (const pid of carriers) if (sendKill(pid)) killed.add(pid);
    // Sweep again only once this round is dead: what it forked before dying is then visible in /proc,
    // so a sweep that finds nothing means nothing is left.
    while (Date.now() < deadline && carriers.some(isRunningPid)) await delay(POLL_MS);
    if (Date.now() >= deadline) break;
  }
  return [...killed].sort((a, b) => a - b);
}

/**
 * `killByTokens` for `process.on('exit')` handlers, where nothing asynchronous runs: the same sweep,
 * blocking the thread for at most `timeoutMs`.
 */
export function killByTokenSync(token: string | readonly string[], options: KillByTokenOptions = {}): number[] {
  const needles = (typeof token === 'string' ? [token] : token).map(tokenNeedle);
  if (process.platform !== 'linux' || needles.length === 0) return [];
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_SWEEP_TIMEOUT_MS);
  const startedAfter = options.startedAfter ?? 0;
  const killed = new Set<number>();
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const spared = protectedPids();
    const carriers = listPids().filter((pid) => carries(pid, needles, startedAfter, spared));
    if (carriers.length === 0) break;
    for (const pid of carriers) if (sendKill(pid)) killed.add(pid);
    while (Date.now() < deadline && carriers.some(isRunningPid)) Atomics.wait(sleeper, 0, 0, POLL_MS);
    if (Date.now() >= deadline) break;
  }
  return [...killed].sort((a, b) => a - b);
}

/** True when an environ block (NUL-separated `NAME=value` entries) holds exactly `needle`. */
export function environHas(environ: Buffer, needle: Buffer): boolean {
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    const startsEntry = at === 0 || environ[at - 1] === 0;
    const end = at + needle.length;
    const endsEntry = end === environ.length || environ[end] === 0;
    if (startsEntry && endsEntry) return true;
  }
  return false;
}

function tokenNeedle(token: string): Buffer {
  // An empty or short token would match far more than one case's processes: refuse it outright.
  if (!isCaseToken(token)) throw new TypeError(`not a case token (32 lowercase hex digits): ${JSON.stringify(token)}`);
  return Buffer.from(`${CASE_TOKEN_ENV}=${token}`);
}

// Processes examined between two turns of the event loop: a few milliseconds of reading at most.
const BATCH = 128;

async function findCarriers(needles: Buffer[], startedAfter: number): Promise<number[]> {
  const spared = protectedPids();
  const pids = listPids();
  const carriers: number[] = [];
  for (let start = 0; start < pids.length; start += BATCH) {
    if (start > 0) await yieldToLoop();
    for (const pid of pids.slice(start, start + BATCH))
      if (carries(pid, needles, startedAfter, spared)) carriers.push(pid);
  }
  return carriers;
}

/** Whether `pid` runs (not a zombie) with one of the needles in its environment. */
function carries(pid: number, needles: Buffer[], startedAfter: number, spared: Set<number>): boolean {
  if (spared.has(pid)) return false;
  if (startedAfter > 0) {
    // Start time first: most processes of a machine are older than the case and need no more reading.
    const stat = readStat(pid);
    if (stat === undefined || stat.startTime < startedAfter || !isRunningState(stat)) return false;
  }
  // Undefined: gone since the listing (ENOENT, ESRCH), or another user's process (EACCES, EPERM).
  const environ = readProcFile(`/proc/${pid}/environ`);
  if (environ === undefined || !needles.some((needle) => environHas(environ, needle))) return false;
  return startedAfter > 0 || isRunningPid(pid);
}

/** The current process and its ancestors: a harness started with a token in its own env must survive. */
function protectedPids(): Set<number> {
  const pids = new Set([process.pid]);
  let stat = readStat('self');
  while (stat !== undefined && stat.parentPid > 0 && !pids.has(stat.parentPid)) {
    pids.add(stat.parentPid);
    stat = readStat(stat.parentPid);
  }
  return pids;
}

function isRunningPid(pid: number): boolean {
  return isRunningState(readStat(pid));
}

function readStat(pid: number | 'self') {
  const text = readProcFile(`/proc/${pid}/stat`)?.toString('latin1');
  return text === undefined ? undefined : parseStat(text);
}

function sendKill(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    // ESRCH: it ended on its own. EPERM: not ours to signal. Either way there is nothing to do.
    return false;
  }
}
