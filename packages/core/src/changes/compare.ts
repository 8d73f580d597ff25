import type { Stats } from 'node:fs';
import { excludeMatcher } from './exclude.js';
import { hashFile } from './file-content.js';
import {
  entryOf,
  hashBefore,
  MAX_ENTRIES,
  readTarget,
  type SnapshotEntry,
  type WorkspaceSnapshot,
} from './snapshot.js';
import { type EntryKind, type WalkProblem, walkTree } from './tree-walk.js';
import type { ChangeStatus } from './types.js';

// The workspace as the agent left it, compared with the snapshot after setup. An entry whose lstat
// (size, mode, mtime, ctime, inode) is the snapshot's is unchanged: a ctime cannot be set back by an
// unprivileged process, so its content was not written. Where the lstat changed but not the size,
// the content is hashed and compared; a different size is a different content.

/** The workspace entry after the agent: what the diff reads. */
export interface AfterEntry extends SnapshotEntry {
  /** The absolute path, as bytes. */
  path: Buffer;
  stats: Stats;
}

/** One changed path: a file, a link or a special file (directories are not listed). */
export interface Change {
  key: string;
  status: ChangeStatus;
  before?: SnapshotEntry;
  after?: AfterEntry;
  /** The content is the same; only the permission bits changed. */
  modeOnly?: true;
}

/** The changes, and what the comparison could not see. */
export interface Comparison {
  changes: Change[];
  /** Directories the walks could not list (after setup, or after the agent): nothing below them is compared. */
  problems: WalkProblem[];
  /** A walk stopped at `MAX_ENTRIES`. */
  stopped?: true;
}

/** Compares the workspace as it is now with `snapshot`; the snapshot is used up. */
export async function compareWorkspace(snapshot: WorkspaceSnapshot): Promise<Comparison> {
  const { entries } = snapshot;
  const changes: Change[] = [];
  const outcome = await walkTree(snapshot.workspace, {
    exclude: excludeMatcher(snapshot.plan.settings.exclude),
    maxEntries: MAX_ENTRIES,
    visit: ({ key, path, stats, kind }) => {
      const before = entries.get(key);
      if (before !== undefined) before.seen = true;
      if (kind === 'directory') {
        if (before !== undefined && before.kind !== 'directory') changes.push({ key, status: 'deleted', before });
        return;
      }
      const after: AfterEntry = { ...entryOf(stats, kind), path, stats };
      if (kind === 'symlink') after.target = readTarget(path);
      if (before === undefined || before.kind === 'directory') {
        changes.push({ key, status: 'added', after });
        return;
      }
      const change = compareEntry(before, after, () => hashBefore(snapshot, key, before));
      if (change !== undefined) changes.push({ key, status: 'modified', before, after, ...change });
    },
  });
  const problems = [...snapshot.problems, ...outcome.problems];
  const stopped = snapshot.stopped === true || outcome.stopped === true;
  // What was not seen again is gone, unless it lies where a walk could not look.
  const hidden = (key: string): boolean =>
    stopped ||
    problems.some((problem) => problem.key === '' || key.startsWith(`${problem.key}/`) || key === problem.key);
  for (const [key, before] of entries) {
    if (before.seen !== true && before.kind !== 'directory' && !hidden(key)) {
      changes.push({ key, status: 'deleted', before });
    }
  }
  changes.sort(byTreeOrder);
  return { changes, problems, ...(stopped && { stopped: true }) };
}

/** How a path that is no directory on either side changed, or undefined when it did not. */
function compareEntry(
  before: SnapshotEntry,
  after: AfterEntry,
  beforeHash: () => string | undefined,
): { modeOnly?: true } | undefined {
  if (before.kind !== after.kind) return {};
  if (before.kind === 'symlink') return before.target === after.target ? undefined : {};
  if (before.kind === 'special') return kindBits(before.mode) === kindBits(after.mode) ? undefined : {};
  const sameStat =
    before.size === after.size &&
    before.mode === after.mode &&
    before.mtimeMs === after.mtimeMs &&
    before.ctimeMs === after.ctimeMs &&
    before.ino === after.ino;
  if (sameStat) return undefined;
  const sameMode = (before.mode & 0o7777) === (after.mode & 0o7777);
  if (before.size !== after.size) return {};
  // Same size, another lstat: the content decides. The read is bounded by the size setup left.
  const hash = hashFile(after.path, after.stats);
  if (hash !== undefined) after.hash = hash;
  const sameContent = hash !== undefined && hash === beforeHash();
  if (sameContent) return sameMode ? undefined : { modeOnly: true };
  return {};
}

function kindBits(mode: number): number {
  return mode & 0o170000;
}

/**
 * The order `diff -r` visits paths in: name by name, each directory's entries before the next name
 * of its parent (`a/b` before `a.txt`), bytes compared as in the C locale.
 */
export function byTreeOrder(left: { key: string }, right: { key: string }): number {
  const a = left.key.replaceAll('/', '\0');
  const b = right.key.replaceAll('/', '\0');
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What kind of entry a change is on one side, for notes. */
export function kindName(kind: EntryKind | undefined, mode: number): string {
  if (kind === 'file') return 'regular file';
  if (kind === 'symlink') return 'symbolic link';
  if (kind === 'directory') return 'directory';
  const bits = kindBits(mode);
  if (bits === 0o010000) return 'fifo';
  if (bits === 0o140000) return 'socket';
  if (bits === 0o020000) return 'character special file';
  if (bits === 0o060000) return 'block special file';
  return 'special file';
}
