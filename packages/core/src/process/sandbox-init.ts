import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { isRunningState, readProcessStat } from './proc-stat.js';

// bwrap with --unshare-pid runs as two host processes: the monitor we spawn (it leads our process
// group) and the sandbox's pid 1, which starts a session of its own (--new-session) and so is not in
// the group. The monitor exits as soon as the command does, while pid 1 is still killing the rest of
// the pid namespace; after a timeout the monitor dies at once and pid 1 follows (--die-with-parent).
// Either way, "the monitor is gone" does not yet mean "the sandbox is gone". bwrap reports pid 1's
// host pid on its --info-fd; the process layer ends and awaits that process too. The kernel lets
// pid 1 finish only after every other process in its namespace has gone, setsid daemons included.

/** The descriptor on which the sandbox launcher reports its pid 1 (bwrap's `--info-fd`). */
export const SANDBOX_INFO_FD = 3;

// What the launcher may write before we stop listening: bwrap's JSON is a few hundred bytes.
const MAX_INFO_BYTES = 64 * 1024;

/** A process as it was when first seen: a pid with its start time, so a reused pid never matches. */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot when the process started. */
  startTime: number;
}

/**
 * Reads bwrap's info JSON (`{"child-pid": N, …}`) from `stream` and identifies that process at once.
 * Resolves undefined when the stream ends without a pid, or the process is already gone.
 */
export function readSandboxInit(stream: Readable): Promise<ProcessIdentity | undefined> {
  return new Promise((resolve) => {
    let text = '';
    let settled = false;
    const finish = (pid: number | undefined): void => {
      if (settled) return;
      settled = true;
      stream.removeAllListeners('data');
      // Keep draining: a launcher must never block on a full pipe we no longer read.
      stream.resume();
      if (pid === undefined) resolve(undefined);
      else void identifyProcess(pid).then(resolve);
    };
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (match) finish(Number(match[1]));
      else if (text.length > MAX_INFO_BYTES) finish(undefined);
    });
    stream.on('error', () => finish(undefined));
    stream.on('close', () => finish(undefined));
  });
}

/** The identity of a live (non-zombie) process, or undefined when there is none with that pid. */
export async function identifyProcess(pid: number): Promise<ProcessIdentity | undefined> {
  const stat = await readProcessStat(pid);
  return stat === undefined || !isRunningState(stat) ? undefined : { pid, startTime: stat.startTime };
}

/** True while the very process `identity` names is running (not gone, not a zombie, pid not reused). */
export async function isStillRunning(identity: ProcessIdentity): Promise<boolean> {
  const stat = await readProcessStat(identity.pid);
  return isRunningState(stat) && stat?.startTime === identity.startTime;
}

/**
 * Sends SIGKILL to the process if it is still the one identified, then waits until it is gone or
 * `deadline` (ms since the epoch) passes. Resolves true when it is gone.
 */
export async function killAndAwait(identity: ProcessIdentity, deadline: number, pollMs = 10): Promise<boolean> {
  if (!(await isStillRunning(identity))) return true;
  try {
    process.kill(identity.pid, 'SIGKILL');
  } catch {
    // Gone in the meantime (ESRCH), or not ours to signal (EPERM): the wait below tells which.
  }
  // A sandbox's pid 1 is usually gone within a few milliseconds of its command: poll at 1 ms first,
  // doubling up to `pollMs`, so that every sandboxed command does not wait out a whole poll.
  for (let wait = 1; ; wait = Math.min(wait * 2, pollMs)) {
    if (!(await isStillRunning(identity))) return true;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    await delay(Math.min(wait, remaining));
  }
}
