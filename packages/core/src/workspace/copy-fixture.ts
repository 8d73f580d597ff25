import { constants, type Stats } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { isSecretPath } from './secret-files.js';

/**
 * Why a fixture entry was not copied: a `symlink` (never followed, never recreated), a `special` file
 * (FIFO, socket, block or character device), a `secret` (see `isSecretPath`), or `git` (a `.git`
 * directory or file: the workspace gets its own baseline history instead).
 */
export type SkipReason = 'symlink' | 'special' | 'secret' | 'git';

/** A fixture entry that was not copied; `path` is relative to the fixture, with `/` separators. */
export interface SkippedEntry {
  path: string;
  reason: SkipReason;
}

/** What `copyFixture` did: regular files copied, and every entry skipped, sorted by path. */
export interface FixtureCopy {
  files: number;
  skipped: SkippedEntry[];
}

/** How to copy a fixture. */
export interface CopyFixtureOptions {
  /** Copies secret-looking files too (see `isSecretPath`). @default false */
  allowSecrets?: boolean;
}

/** Stable codes of the ways a fixture copy can fail; match on these, never on messages. */
export type FixtureErrorCode =
  | 'GZ_BENCH_FIXTURE_NOT_FOUND'
  | 'GZ_BENCH_FIXTURE_INVALID'
  | 'GZ_BENCH_FIXTURE_UNREADABLE'
  | 'GZ_BENCH_WORKSPACE_INVALID';

/** A fixture that cannot be copied, or a target that cannot receive it; the message names the path. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
  readonly code: FixtureErrorCode;

  constructor(code: FixtureErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}

/** What becomes of a fixture entry: copied as a file or a directory, or skipped for a reason. */
export type FixtureEntryKind = 'file' | 'directory' | SkipReason;

/** Permission bits kept on copies; setuid, setgid and sticky bits are dropped. */
export const COPIED_MODE_BITS = 0o777;

/**
 * Decides what happens to the fixture entry at `relativePath` (posix), from its `lstat`. Shared by
 * `copyFixture` and the restore of protected paths, so both see the same view of a fixture.
 */
export function classifyFixtureEntry(
  relativePath: string,
  stats: Stats,
  options: CopyFixtureOptions = {},
): FixtureEntryKind {
  if (stats.isSymbolicLink()) return 'symlink';
  // Any `.git`, a directory or a gitdir file, at any depth: git itself treats the name case-insensitively.
  if (posix.basename(relativePath).toLowerCase() === '.git') return 'git';
  if (!stats.isFile() && !stats.isDirectory()) return 'special';
  if (options.allowSecrets !== true && isSecretPath(relativePath, stats.isDirectory())) return 'secret';
  return stats.isFile() ? 'file' : 'directory';
}

/**
 * Copies the fixture directory `source` into `target`, an existing empty directory: regular files
 * (content and permission bits) and directories, recursively. Symlinks are never followed nor
 * recreated; special files, `.git` and secret-looking files are skipped; every skipped entry is
 * reported. The fixture is only read. Throws a FixtureError when `source` is missing, a symlink or
 * not a directory, or when `target` is not an empty directory outside the fixture.
 */
export async function copyFixture(
  source: string,
  target: string,
  options: CopyFixtureOptions = {},
): Promise<FixtureCopy> {
  await assertFixtureDirectory(source);
  await assertEmptyTarget(source, target);
  const result: FixtureCopy = { files: 0, skipped: [] };
  // The target's own mode is left alone: it is the harness's workspace, not part of the fixture.
  await copyDirectoryContents(source, target, '', options, result);
  result.skipped.sort(byPath);
  return result;
}

/**
 * Copies the one fixture entry at `relativePath` (posix) below `sourceRoot` to the same place below
 * `targetRoot`, as `copyFixture` would have: its parent must exist in the target and nothing may be
 * at the path there. Used to restore protected paths.
 */
export async function copyFixtureEntry(
  sourceRoot: string,
  targetRoot: string,
  relativePath: string,
  options: CopyFixtureOptions = {},
): Promise<FixtureCopy> {
  const result: FixtureCopy = { files: 0, skipped: [] };
  await copyEntry(sourceRoot, targetRoot, relativePath, options, result);
  result.skipped.sort(byPath);
  return result;
}

async function copyEntry(
  sourceRoot: string,
  targetRoot: string,
  relativePath: string,
  options: CopyFixtureOptions,
  result: FixtureCopy,
): Promise<void> {
  const from = join(sourceRoot, relativePath);
  const to = join(targetRoot, relativePath);
  const stats = await readFixture(relativePath, () => lstat(from));
  const kind = classifyFixtureEntry(relativePath, stats, options);
  if (kind === 'file') {
    // EXCL: fails on anything at the target, a dangling symlink included, instead of writing through it.
    await copyFile(from, to, constants.COPYFILE_EXCL);
    await chmod(to, stats.mode & COPIED_MODE_BITS);
    result.files += 1;
  } else if (kind === 'directory') {
    // Owner-only while filling it, so a read-only fixture directory can still be filled; its own
    // mode is applied once its entries are in.
    await mkdir(to, { mode: 0o700 });
    await copyDirectoryContents(sourceRoot, targetRoot, relativePath, options, result);
    await chmod(to, stats.mode & COPIED_MODE_BITS);
  } else {
    result.skipped.push({ path: relativePath, reason: kind });
  }
}

async function copyDirectoryContents(
  sourceRoot: string,
  targetRoot: string,
  relativePath: string,
  options: CopyFixtureOptions,
  result: FixtureCopy,
): Promise<void> {
  const names = await readFixture(relativePath, () => readdir(join(sourceRoot, relativePath)));
  for (const name of names.sort()) {
    await copyEntry(sourceRoot, targetRoot, relativePath === '' ? name : `${relativePath}/${name}`, options, result);
  }
}

async function assertFixtureDirectory(source: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(source);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new FixtureError('GZ_BENCH_FIXTURE_NOT_FOUND', `fixture directory not found: ${source}`, error);
    }
    throw new FixtureError('GZ_BENCH_FIXTURE_UNREADABLE', `cannot read fixture ${source}: ${code ?? error}`, error);
  }
  if (stats.isSymbolicLink()) {
    throw new FixtureError(
      'GZ_BENCH_FIXTURE_INVALID',
      `fixture is a symlink: ${source}; name the directory it points to instead`,
    );
  }
  if (!stats.isDirectory()) {
    throw new FixtureError('GZ_BENCH_FIXTURE_INVALID', `fixture is not a directory: ${source}`);
  }
}

async function assertEmptyTarget(source: string, target: string): Promise<void> {
  const stats = await lstat(target).catch(() => undefined);
  if (!stats?.isDirectory()) {
    throw new FixtureError('GZ_BENCH_WORKSPACE_INVALID', `cannot copy the fixture into ${target}: not a directory`);
  }
  if ((await readdir(target)).length > 0) {
    throw new FixtureError('GZ_BENCH_WORKSPACE_INVALID', `cannot copy the fixture into ${target}: it is not empty`);
  }
  // A target inside the fixture would be copied into itself, and would write into the fixture.
  const inside = posix.relative(await realpath(source), await realpath(target));
  if (inside === '' || (inside !== '..' && !inside.startsWith('../'))) {
    throw new FixtureError(
      'GZ_BENCH_WORKSPACE_INVALID',
      `cannot copy the fixture into ${target}: it lies inside the fixture`,
    );
  }
}

/** Runs a read of the fixture, naming the entry in the error should it fail. */
async function readFixture<T>(relativePath: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const code = errnoCode(error);
    throw new FixtureError(
      'GZ_BENCH_FIXTURE_UNREADABLE',
      `cannot copy fixture entry ${relativePath === '' ? '.' : relativePath}: ${code ?? String(error)}`,
      error,
    );
  }
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function byPath(a: SkippedEntry, b: SkippedEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
