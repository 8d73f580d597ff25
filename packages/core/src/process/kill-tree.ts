import { readdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { listPids, readProcFile } from './proc-read.js';
import { isRunningState, parseStat, readProcessStat } from './proc-stat.js';

// Process groups are how a whole agent tree is reached: the shell is spawned `detached`, so it leads a
// new group that its children and grandchildren inherit. A descendant that calls setsid() leaves the
// group and escapes; only cgroups or containers could catch that, which is out of scope here.

/** Sends `signal` to every process in the group; false when the group is gone or out of reach. */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch (error) {
    // ESRCH: nothing left in the group. EPERM: nothing in it we may signal. Neither is our fault.
    if (hasErrorCode(error, 'ESRCH') || hasErrorCode(error, 'EPERM')) return false;
    throw error;
  }
}

/** True while the group has a member that is still running (zombies waiting to be reaped do not count). */
export async function processGroupIsRunning(groupId: number): Promise<boolean> {
  try {
    process.kill(-groupId, 0);
  } catch (error) {
    if (hasErrorCode(error, 'ESRCH')) return false;
    if (!hasErrorCode(error, 'EPERM')) throw error;
  }
  // kill(0) also answers for zombies, and an orphan stays a zombie until init reaps it, which some
  // inits (e.g. in micro-VMs) do only every few seconds. /proc tells running members from zombies.
  if (process.platform !== 'linux') return true;
  return (await runningGroupMembers(groupId)) > 0;
}

/** Resolves true as soon as no member of the group is running, or false once `deadline` (ms since the epoch) passes. */
export async function waitForProcessGroupExit(groupId: number, deadline: number, pollMs = 25): Promise<boolean> {
  for (;;) {
    if (!(await processGroupIsRunning(groupId))) return true;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    await delay(Math.min(pollMs, remaining));
  }
}

async function runningGroupMembers(groupId: number): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 1; // Cannot tell: assume alive, the caller's deadline still bounds the wait.
  }
  const stats = await Promise.all(
    entries.filter((entry) => /^\d+$/.test(entry)).map((pid) => readProcessStat(Number(pid))),
  );
  return stats.filter((stat) => stat?.groupId === groupId && isRunningState(stat)).length;
}

function hasErrorCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * True while a member of the group runs that is none of `except`; false once only they are left (or
 * nothing). Where /proc cannot tell, true: the caller's deadline still bounds its wait.
 */
export function groupRunsBeyond(groupId: number, except: ReadonlySet<number>): boolean {
  try {
    process.kill(-groupId, 0);
  } catch (error) {
    if (hasErrorCode(error, 'ESRCH')) return false;
    if (!hasErrorCode(error, 'EPERM')) throw error;
  }
  if (process.platform !== 'linux') return true;
  for (const pid of listPids()) {
    if (except.has(pid)) continue;
    const text = readProcFile(`/proc/${pid}/stat`)?.toString('latin1');
    const stat = text === undefined ? undefined : parseStat(text);
    if (stat?.groupId === groupId && isRunningState(stat)) return true;
  }
  return false;
}

/** The children of a single-threaded process whose command line holds `marker`, from /proc. */
export function childrenMarked(pid: number, marker: string): number[] {
  const children = readProcFile(`/proc/${pid}/task/${pid}/children`)?.toString('latin1') ?? '';
  return children
    .split(' ')
    .filter(Boolean)
    .map(Number)
    .filter((child) => readProcFile(`/proc/${child}/cmdline`)?.toString('latin1').includes(marker) === true);
}
