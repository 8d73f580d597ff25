import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readlinkSync,
  rmSync,
  type Stats,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { excludeMatcher } from './exclude.js';
import { hashBytes, hashFile, identityOf, readBounded } from './file-content.js';
import type { ResolvedChanges } from './settings.js';
import { type EntryKind, pathOf, type WalkProblem, walkTree } from './tree-walk.js';

// The workspace as setup left it, taken just before the agent runs: for every entry its kind, size,
// mode and the lstat fields that tell whether it changed (mtime, ctime, inode), and for regular files
// a content hash and, where it can be had again, a way back to the content.
//
// The content before the agent comes from the fixture, without copying the workspace: a copy would
// cost as much as the fixture copy itself (the budget is a fifth of it). A workspace file is the
// fixture's copy when its ctime is older than a fence taken right after the copy (no process can set
// a ctime back) and the fixture file has not changed since a fence taken before the copy: then the
// snapshot keeps the fixture file's identity (`identityOf`), and neither file is read. Files setup
// made or changed are hashed and, within bounds, their content appended to one file in the case area
// (one file, not one per entry: creating inodes is what a copy costs). At the comparison, content
// from the fixture is used only while its file still has that identity, and content from the case
// area only if it still hashes to the snapshot's hash: the agent can write to both.

/** Where the fixture was copied from, and the fences around the copy (ctimes, see `changesFence`). */
export interface FixtureOrigin {
  dir: string;
  /** The ctime of a file made just before the copy. */
  fenceBefore: number;
  /** The ctime of a file made just after the copy. */
  fenceAfter: number;
}

/** What the snapshot needs beyond the workspace. */
export interface SnapshotPlan {
  settings: ResolvedChanges;
  fixture?: FixtureOrigin;
  /** A file in the case area (outside the workspace) that holds the content of files setup made. */
  keptFile: string;
}

/** One entry of the snapshot. */
export interface SnapshotEntry {
  kind: EntryKind;
  size: number;
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /**
   * Regular files: the SHA-256 of the content (base64); absent when it could not be read, and for the
   * fixture's copies until the comparison needs it (see `hashBefore`).
   */
  hash?: string;
  /** Regular files copied from the fixture: the fixture file's identity then (`identityOf`). */
  fixtureIdentity?: string;
  /** Symbolic links: the target's bytes as latin1. */
  target?: string;
  /** Regular files: `fixture` (the fixture's file at the same path), or where it is in the kept file. */
  source?: 'fixture' | { offset: number; length: number };
  /** Set by the comparison on the entries it found again. */
  seen?: true;
}

/** The workspace after setup. */
export interface WorkspaceSnapshot {
  workspace: string;
  plan: SnapshotPlan;
  entries: Map<string, SnapshotEntry>;
  problems: WalkProblem[];
  stopped?: true;
  /** Bytes in the kept file. */
  keptBytes: number;
}

/** Bytes of setup's files kept for the diff, per trial, at most. */
export const KEPT_MAX_BYTES = 8 * 1024 * 1024;

/** Entries walked at most, after setup and after the agent. */
export const MAX_ENTRIES = 250_000;

/**
 * The ctime the file system gives a file made now, for fences around the fixture copy. It comes from
 * the kernel's clock, as every ctime it compares with does, and at its granularity.
 */
export function changesFence(path: string): number {
  writeFileSync(path, '', { flag: 'w', mode: 0o600 });
  const fence = lstatSync(path).ctimeMs;
  rmSync(path, { force: true });
  return fence;
}

/** Takes the snapshot of `workspace` (a real directory) as setup left it. */
export async function takeSnapshot(workspace: string, plan: SnapshotPlan): Promise<WorkspaceSnapshot> {
  const entries = new Map<string, SnapshotEntry>();
  const snapshot: WorkspaceSnapshot = { workspace, plan, entries, problems: [], keptBytes: 0 };
  const fixtureRoot = plan.fixture === undefined ? undefined : Buffer.from(plan.fixture.dir);
  let kept: number | undefined;
  try {
    const outcome = await walkTree(workspace, {
      exclude: excludeMatcher(plan.settings.exclude),
      maxEntries: MAX_ENTRIES,
      visit: ({ key, path, stats, kind }) => {
        const entry = entryOf(stats, kind);
        if (kind === 'symlink') entry.target = readTarget(path);
        if (kind === 'file') {
          const fromFixture =
            fixtureRoot === undefined
              ? undefined
              : fixtureMatch(plan.fixture as FixtureOrigin, pathOf(fixtureRoot, key), path, stats);
          if (fromFixture !== undefined) {
            entry.fixtureIdentity = fromFixture.identity;
            if (fromFixture.hash !== undefined) entry.hash = fromFixture.hash;
            entry.source = 'fixture';
          } else if (stats.size <= plan.settings.maxFileBytes && snapshot.keptBytes + stats.size <= KEPT_MAX_BYTES) {
            const content = readBounded(path, stats, plan.settings.maxFileBytes);
            if (Buffer.isBuffer(content)) {
              entry.hash = hashBytes(content);
              kept ??= openSync(
                plan.keptFile,
                constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
                0o600,
              );
              writeAll(kept, content);
              entry.source = { offset: snapshot.keptBytes, length: content.length };
              snapshot.keptBytes += content.length;
            }
          } else {
            const hash = hashFile(path, stats);
            if (hash !== undefined) entry.hash = hash;
          }
        }
        entries.set(key, entry);
      },
    });
    snapshot.problems = outcome.problems;
    if (outcome.stopped) snapshot.stopped = true;
  } finally {
    if (kept !== undefined) closeSync(kept);
  }
  return snapshot;

  /**
   * The fixture file's identity when the workspace file at this path is its copy: copied from a
   * fixture file that has not changed since before the copy, and unchanged since (or changed back to
   * the same bytes, which are then hashed).
   */
  function fixtureMatch(
    origin: FixtureOrigin,
    fixturePath: Buffer,
    path: Buffer,
    stats: Stats,
  ): { identity: string; hash?: string } | undefined {
    let fixture: Stats | undefined;
    try {
      fixture = lstatSync(fixturePath, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (fixture === undefined || !fixture.isFile() || fixture.size !== stats.size) return undefined;
    if (fixture.ctimeMs >= origin.fenceBefore) return undefined;
    const identity = identityOf(fixture);
    if (stats.ctimeMs < origin.fenceAfter) return { identity };
    // Changed at or after the copy's last tick (the clock is coarse: a copy's last files share the
    // fence's tick): the same bytes count, whoever wrote them.
    const hash = hashFile(fixturePath, fixture);
    return hash !== undefined && hashFile(path, stats) === hash ? { identity, hash } : undefined;
  }
}

/** The fixture file an entry was copied from, while it still has the identity it had then. */
export function unchangedFixtureFile(
  snapshot: WorkspaceSnapshot,
  key: string,
  entry: SnapshotEntry,
): { path: Buffer; stats: Stats } | undefined {
  const origin = snapshot.plan.fixture;
  if (entry.fixtureIdentity === undefined || origin === undefined) return undefined;
  const path = pathOf(Buffer.from(origin.dir), key);
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    return stats?.isFile() && identityOf(stats) === entry.fixtureIdentity ? { path, stats } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The content hash of an entry as setup left it: its own, or for a fixture's copy the hash of the
 * fixture file, read now, while that file is unchanged (before and after the read).
 */
export function hashBefore(snapshot: WorkspaceSnapshot, key: string, entry: SnapshotEntry): string | undefined {
  if (entry.hash !== undefined) return entry.hash;
  const file = unchangedFixtureFile(snapshot, key, entry);
  if (file === undefined) return undefined;
  const hash = hashFile(file.path, file.stats);
  if (hash !== undefined && unchangedFixtureFile(snapshot, key, entry) !== undefined) entry.hash = hash;
  return entry.hash;
}

/** The fields of an lstat the snapshot keeps. */
export function entryOf(stats: Stats, kind: EntryKind): SnapshotEntry {
  return {
    kind,
    size: stats.size,
    mode: stats.mode,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    ino: stats.ino,
  };
}

/** A link's target as latin1, or an empty string when it cannot be read. */
export function readTarget(path: Buffer): string {
  try {
    return readlinkSync(path, { encoding: 'buffer' }).toString('latin1');
  } catch {
    return '';
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
