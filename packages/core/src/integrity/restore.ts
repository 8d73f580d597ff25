import { chmod, lstat, mkdir, readdir, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { COPIED_MODE_BITS, type CopyFixtureOptions, copyFixtureEntry } from '../workspace/copy-fixture.js';
import { RemoveTreeError, removeTree } from '../workspace/remove-tree.js';
import { compareEntry, type Expected, fixtureView, workspaceView } from './compare-tree.js';
import { lstatIfExists } from './fs-entries.js';
import { ProtectError } from './protect-error.js';
import { normalizeProtectedPath } from './protected-paths.js';

/** What `restoreProtected` found: every changed path below a protected one (posix, sorted). */
export interface RestoreResult {
  tampered: string[];
}

/**
 * Call once the agent's whole process tree is dead, before the checks. Compares each protected path
 * of `workspace` with the fixture, byte for byte and recursively for directories (content, permission
 * bits, entries added or deleted, entries replaced by a symlink, a directory or a file, a parent
 * directory replaced by anything else), then rebuilds it from the fixture, even when unchanged, so
 * that no hard link or open file the agent kept can reach the restored copy. Whatever the agent put at
 * a path is removed without following symlinks: nothing outside the workspace is touched, and the
 * fixture is only read. The fixture is seen as `copyFixture` copied it (pass the same `options`):
 * symlinks, special files and, by default, secrets in it count as absent.
 */
export async function restoreProtected(
  fixtureDir: string,
  workspace: string,
  paths: string[],
  options: CopyFixtureOptions = {},
): Promise<RestoreResult> {
  const root = await lstat(workspace).catch(() => undefined);
  if (!root?.isDirectory()) {
    throw new ProtectError(
      'GZ_BENCH_WORKSPACE_INVALID',
      workspace,
      `cannot restore protected paths: the workspace ${workspace} is no longer a directory`,
    );
  }
  const tampered = new Set<string>();
  for (const path of outermost(paths.map(normalizeProtectedPath))) {
    const expected = await fixtureView(fixtureDir, path, options);
    const actual = await workspaceView(workspace, path);
    if (actual.kind === 'blocked') tampered.add(path);
    else await compareEntry(fixtureDir, workspace, path, expected.kind, options, tampered);
    await restoreEntry(fixtureDir, workspace, path, expected, options);
  }
  return { tampered: [...tampered].sort() };
}

/** The sorted paths without those below another one of them: restoring `test` covers `test/a.js`. */
function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((path) => !sorted.some((other) => path.startsWith(`${other}/`)));
}

/**
 * Makes the workspace hold at `path` exactly what the fixture view holds: ancestors that are not real
 * directories are removed (a symlink as a link, never its target) and recreated, then whatever is at
 * the path is removed and the fixture's entry copied back.
 */
async function restoreEntry(
  fixtureDir: string,
  workspace: string,
  path: string,
  expected: { kind: Expected; ancestorModes: number[] },
  options: CopyFixtureOptions,
): Promise<void> {
  const parts = path.split('/');
  // Directories recreated on the way, with their fixture modes, applied once the entry is in.
  const recreated: Array<[string, number]> = [];
  for (let depth = 1; depth < parts.length; depth += 1) {
    const ancestor = join(workspace, ...parts.slice(0, depth));
    const stats = await lstatIfExists(ancestor);
    if (stats?.isDirectory()) continue;
    // Nothing can be at the path: it is as absent as the fixture view wants it.
    if (stats === undefined && expected.kind === 'absent') return;
    if (stats !== undefined) await withOwnerAccess(workspace, ancestor, () => unlink(ancestor));
    if (expected.kind === 'absent') return;
    await withOwnerAccess(workspace, ancestor, () => mkdir(ancestor, { mode: 0o700 }));
    recreated.push([ancestor, expected.ancestorModes[depth - 1] ?? 0o755]);
  }
  const target = join(workspace, path);
  // Never follows symlinks: a link is removed as a link, a directory's links with it. Any depth: the
  // agent may have nested directories past PATH_MAX in a protected directory.
  await withOwnerAccess(workspace, target, () => removeTree(target));
  if (expected.kind !== 'absent') {
    await withOwnerAccess(workspace, target, () => copyFixtureEntry(fixtureDir, workspace, path, options));
  }
  for (const [directory, mode] of recreated.reverse()) await chmod(directory, mode);
}

/**
 * Runs a change at `target` in the workspace; should permissions the agent removed forbid it, gives
 * the owner back access to the real directories from the workspace down to and inside `target`, and
 * tries once more.
 */
async function withOwnerAccess<T>(workspace: string, target: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // removeTree restores access inside the tree itself, but not above it.
    if (code !== 'EACCES' && code !== 'EPERM' && !(error instanceof RemoveTreeError)) throw error;
    const parts = posix.relative(workspace, target).split('/');
    for (let depth = 0; depth < parts.length; depth += 1) {
      await grantOwnerAccess(join(workspace, ...parts.slice(0, depth)), false);
    }
    await grantOwnerAccess(target, true);
    return await change();
  }
}

async function grantOwnerAccess(path: string, recursive: boolean): Promise<void> {
  const stats = await lstatIfExists(path);
  if (!stats?.isDirectory()) return;
  await chmod(path, (stats.mode & COPIED_MODE_BITS) | 0o700).catch(() => {});
  if (!recursive) return;
  const names = await readdir(path).catch(() => []);
  for (const name of names) await grantOwnerAccess(join(path, name), true);
}
