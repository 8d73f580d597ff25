import { lstat, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killByToken, readProcessStat } from '../process/sweep.js';
import { CASE_AREA_PREFIX } from './case-area.js';
import { parseOwnedDirName } from './owned-dirs.js';
import { isMarkedKept, type OwnerRecord, readOwnerRecord } from './owner-record.js';
import { RemoveTreeError, removeTree } from './remove-tree.js';

// A harness that is SIGKILLed (OOM killer, a CI runner cancelling a job, `kill -9` on a worker) runs
// no cleanup: its case areas and cache dirs stay on disk and its agents' daemons keep running. The
// next harness (or the same run, once a worker died) finds them by their names and owner records
// and finishes the job.
//
// Assumptions: the temp dir is local to this machine and this PID namespace (pids in names and
// owner records mean nothing on another host or in another container), and directories are only
// cleaned by their own user: those of other users are skipped, even when running as root. An agent
// can rewrite its owner.json and write a kept.json (it runs as the same user, and its area is
// writable even in the sandbox): that can make its area be kept, or spare its processes, no more.
// Whose an area is comes from its name, which the agent cannot change.

/** What `cleanStaleAreas` did. */
export interface CleanStaleAreasResult {
  /** Directories that were removed. */
  removed: string[];
  /** Pids of leftover processes of those areas that were killed. */
  killed: number[];
  /** Stale directories that could not be removed (they are tried again next time), with the reason. */
  failed: Array<{ path: string; reason: string }>;
}

/**
 * Cleans up after harness processes that died without doing it themselves. For each directory
 * directly under `parent` that a harness process made (see owned-dirs.ts: case areas, the CLI's
 * cache dirs and runs' slot dirs) and whose owner is gone (or whose pid now belongs to another process): kills every
 * process carrying the token of its owner.json, if it has one, and removes it. An area whose
 * owner.json is missing (its harness died while creating it) goes too; areas marked kept, areas of
 * live owners, other users' directories and other names are left alone. Older areas named
 * `gz-bench-XXXXXX` are judged by their owner.json alone. Never throws for a directory it cannot
 * remove: it is listed in `failed`. Safe to run from several processes at once.
 */
export async function cleanStaleAreas(parent: string = tmpdir()): Promise<CleanStaleAreasResult> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const result: CleanStaleAreasResult = { removed: [], killed: [], failed: [] };
  const killed = new Set<number>();
  for (const entry of entries) {
    // From readdir's own type: a symlink named gz-bench-* is not a directory here, and is never followed.
    if (!entry.isDirectory() || !entry.name.startsWith(CASE_AREA_PREFIX)) continue;
    const root = join(parent, entry.name);
    if (!(await isOurs(root))) continue;
    const named = parseOwnedDirName(entry.name);
    // Only case areas hold an owner record (and processes to kill); cache and slot dirs go by their name.
    const record = named !== undefined && named.kind !== 'area' ? undefined : await readOwnerRecord(root);
    const owner = named ?? record;
    if (owner === undefined || (await isMarkedKept(root)) || (await ownerIsRunning(owner))) continue;
    // Processes first, or a leftover agent could keep writing into the tree while it is removed.
    if (record !== undefined) for (const pid of await killByToken(record.token)) killed.add(pid);
    try {
      await removeTree(root);
      result.removed.push(root);
    } catch (error) {
      if (!(error instanceof RemoveTreeError)) throw error;
      result.failed.push({ path: root, reason: error.reason });
    }
  }
  result.killed = [...killed].sort((a, b) => a - b);
  return result;
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
