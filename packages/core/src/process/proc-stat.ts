import { readFile } from 'node:fs/promises';
import { readProcFile } from './proc-read.js';

/** The fields of /proc/<pid>/stat the process layer uses. */
export interface ProcessStat {
  /** One letter: R, S, D, Z (zombie), X (dead), … */
  state: string;
  parentPid: number;
  /** The process group. */
  groupId: number;
  /** Clock ticks after boot at which the process started; with the pid, it identifies a process. */
  startTime: number;
}

/** Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and ')' so fields start after the last ')'. */
export function parseStat(text: string): ProcessStat | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 of the file (state), so field n is fields[n - 3].
  const state = fields[0];
  const parentPid = Number(fields[1]);
  const groupId = Number(fields[2]);
  const startTime = Number(fields[19]);
  if (
    state === undefined ||
    state === '' ||
    !Number.isInteger(parentPid) ||
    !Number.isInteger(groupId) ||
    !Number.isInteger(startTime)
  ) {
    return undefined;
  }
  return { state, parentPid, groupId, startTime };
}

/** What /proc/<pid>/stat says about a process, or undefined when it is gone or out of reach. */
export async function readProcessStat(pid: number | 'self'): Promise<ProcessStat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseStat(text);
}

/**
 * Whether a process still runs. Zombies count as ended: an orphan stays one until init reaps it,
 * which some inits (e.g. in micro-VMs) do only every few seconds.
 */
export function isRunningState(stat: ProcessStat | undefined): boolean {
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

// USER_HZ, the unit of start times in /proc/<pid>/stat: 100 on every architecture Linux runs on today
// (alpha, which had 1024, is gone). Where it were larger, times computed with 100 would only be earlier,
// which is the safe side for a lower bound.
const USER_HZ = 100;

/**
 * Now, in the clock ticks after boot in which /proc/<pid>/stat gives start times, rounded down; a
 * lower bound for the start time of any process started from now on. Undefined without /proc.
 */
export function clockTicksNow(): number | undefined {
  const uptime = readProcFile('/proc/uptime')?.toString('latin1');
  const seconds = uptime === undefined ? Number.NaN : Number.parseFloat(uptime);
  return Number.isFinite(seconds) ? Math.floor(seconds * USER_HZ) : undefined;
}
