import { readFile } from 'node:fs/promises';

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
