import { lstat, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killByToken, readProcessStat } from '../process/sweep.js';
import { CASE_AREA_PREFIX, removeAreaDir } from './case-area.js';
import { type OwnerRecord, readOwnerRecord } from './owner-record.js';

// A harness that is SIGKILLed (OOM killer, a CI runner cancelling a job, `kill -9` on a worker) runs
// no cleanup: its case areas stay on disk and its agents' daemons keep running. The next harness
// finds those areas by their owner records and finishes the job.
//
// Assumptions: the temp dir is local to this machine and this PID namespace (pids in owner records
// mean nothing on another host or in another container), and areas are only cleaned by their own user:
// areas of other users are skipped, even when running as root. An agent can rewrite its owner.json
// (it runs as the same user); a forged record can make its area look live or dead, no more.

/** What `cleanStaleAreas` did. */
export interface CleanStaleAreasResult {
  /** Area roots that were removed. */
  removed: string[];
  /** Pids of leftover processes of those areas that were killed. */
  killed: number[];
}

/**
 * Cleans up after harness processes that died without doing it themselves: for each `gz-bench-*`
 * directory directly under `parent` whose owner.json names a process that is gone (or whose pid now
 * belongs to another process), kills every process carrying its token and removes the area. Areas of
 * live owners, directories without a valid owner.json, and other names are left alone. Safe to run
 * from several processes at once.
 */
export async function cleanStaleAreas(parent: string = tmpdir()): Promise<CleanStaleAreasResult> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  const killed = new Set<number>();
  for (const entry of entries) {
    // From readdir's own type: a symlink named gz-bench-* is not a directory here, and is never followed.
    if (!entry.isDirectory() || !entry.name.startsWith(CASE_AREA_PREFIX)) continue;
    const root = join(parent, entry.name);
    if (!(await isOurs(root))) continue;
    const owner = await readOwnerRecord(root);
    if (owner === undefined || (await ownerIsRunning(owner))) continue;
    // Processes first, or a leftover agent could keep writing into the tree while it is removed.
    for (const pid of await killByToken(owner.token)) killed.add(pid);
    await removeAreaDir(root);
    removed.push(root);
  }
  return { removed, killed: [...killed].sort((a, b) => a - b) };
}

/** True while the process that wrote `owner` still runs: same pid and, where /proc tells, same start time. */
export async function ownerIsRunning(owner: Pick<OwnerRecord, 'pid' | 'startTime'>): Promise<boolean> {
  if (process.platform === 'linux' && (await readProcessStat('self')) !== undefined) {
    const stat = await readProcessStat(owner.pid);
    // A zombie is dead; a different start time means the pid was reused by an unrelated process.
    if (stat !== undefined) return stat.state !== 'Z' && stat.state !== 'X' && stat.startTime === owner.startTime;
  }
  // No /proc to ask (or the pid is hidden from it): existence is all that can be told, and it is
  // taken as life, since removing a live harness's area would break its running case.
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isOurs(root: string): Promise<boolean> {
  const stats = await lstat(root).catch(() => undefined);
  if (!stats?.isDirectory()) return false;
  const uid = process.getuid?.();
  return uid === undefined || stats.uid === uid;
}
