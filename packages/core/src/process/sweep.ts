import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { isRunningState, type ProcessStat, parseStat, readProcessStat } from './proc-stat.js';

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
}

/**
 * SIGKILLs every process whose environment holds `GZ_BENCH_CASE_TOKEN=<token>` exactly, sweeping /proc
 * again until a sweep finds none (a dying daemon may fork between sweeps) or the timeout passes.
 * Never signals the current process or its ancestors. Returns the pids it killed; [] without /proc.
 */
export async function killByToken(token: string, options: KillByTokenOptions = {}): Promise<number[]> {
  const needle = tokenNeedle(token);
  if (process.platform !== 'linux') return [];
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_SWEEP_TIMEOUT_MS);
  const killed = new Set<number>();
  for (;;) {
    const carriers = await findCarriers(needle);
    if (carriers.length === 0) break;
    for (const pid of carriers) if (sendKill(pid)) killed.add(pid);
    // Sweep again only once this round is dead: what it forked before dying is then visible in /proc,
    // so a sweep that finds nothing means nothing is left.
    while (Date.now() < deadline && (await anyRunning(carriers))) await delay(POLL_MS);
    if (Date.now() >= deadline) break;
  }
  return [...killed].sort((a, b) => a - b);
}

/**
 * `killByToken` for `process.on('exit')` handlers, where nothing asynchronous runs: the same sweep with
 * synchronous reads, blocking the thread for at most `timeoutMs`.
 */
export function killByTokenSync(token: string, options: KillByTokenOptions = {}): number[] {
  const needle = tokenNeedle(token);
  if (process.platform !== 'linux') return [];
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_SWEEP_TIMEOUT_MS);
  const killed = new Set<number>();
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const carriers = findCarriersSync(needle);
    if (carriers.length === 0) break;
    for (const pid of carriers) if (sendKill(pid)) killed.add(pid);
    while (Date.now() < deadline && carriers.some((pid) => isRunningStat(readTextSync(`/proc/${pid}/stat`)))) {
      Atomics.wait(sleeper, 0, 0, POLL_MS);
    }
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

async function findCarriers(needle: Buffer): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const spared = await protectedPids();
  const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
  const matches = await Promise.all(
    pids.map(async (pid) => {
      if (spared.has(pid)) return false;
      // ENOENT/ESRCH: gone since readdir. EACCES/EPERM: another user's process. Both are skipped.
      const environ = await readFile(`/proc/${pid}/environ`).catch(() => undefined);
      if (environ === undefined || !environHas(environ, needle)) return false;
      return isRunningStat(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined));
    }),
  );
  return pids.filter((_, index) => matches[index]);
}

function findCarriersSync(needle: Buffer): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const spared = protectedPidsSync();
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      if (spared.has(pid)) return false;
      let environ: Buffer;
      try {
        environ = readFileSync(`/proc/${pid}/environ`);
      } catch {
        return false;
      }
      return environHas(environ, needle) && isRunningStat(readTextSync(`/proc/${pid}/stat`));
    });
}

/** The current process and its ancestors: a harness started with a token in its own env must survive. */
async function protectedPids(): Promise<Set<number>> {
  const pids = new Set([process.pid]);
  let stat = await readProcessStat('self');
  while (stat !== undefined && stat.parentPid > 0 && !pids.has(stat.parentPid)) {
    pids.add(stat.parentPid);
    stat = await readProcessStat(stat.parentPid);
  }
  return pids;
}

function protectedPidsSync(): Set<number> {
  const pids = new Set([process.pid]);
  let stat = readStatSync('self');
  while (stat !== undefined && stat.parentPid > 0 && !pids.has(stat.parentPid)) {
    pids.add(stat.parentPid);
    stat = readStatSync(stat.parentPid);
  }
  return pids;
}

async function anyRunning(pids: number[]): Promise<boolean> {
  const texts = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)));
  return texts.some(isRunningStat);
}

function isRunningStat(text: string | undefined): boolean {
  return text !== undefined && isRunningState(parseStat(text));
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

function readStatSync(pid: number | 'self'): ProcessStat | undefined {
  const text = readTextSync(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseStat(text);
}

function readTextSync(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
