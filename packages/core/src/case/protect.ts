import { constants, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import {
  COPIED_MODE_BITS,
  type CopyFixtureOptions,
  classifyFixtureEntry,
  copyFixtureEntry,
} from '../workspace/copy-fixture.js';
import { RemoveTreeError, removeTree } from '../workspace/remove-tree.js';

// Protected paths are checker files: the agent may not change them, or a check that runs them would
// grade whatever the agent wrote. They are validated against the fixture before any case runs, and
// restored from it after the agent and before the checks.

/** Stable codes of protect failures; match on these, never on messages. */
export type ProtectErrorCode = 'GZ_BENCH_INVALID_PROTECT' | 'GZ_BENCH_WORKSPACE_INVALID';

/**
 * A protected path that cannot be protected (`GZ_BENCH_INVALID_PROTECT`, with the path as given in
 * `path`), or a workspace that is no longer a directory to restore into (`GZ_BENCH_WORKSPACE_INVALID`).
 */
export class ProtectError extends Error {
  override readonly name = 'ProtectError';
  readonly code: ProtectErrorCode;
  /** The protected path as it was given, or the workspace. */
  readonly path: string;

  constructor(code: ProtectErrorCode, path: string, message: string) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

/** What `restoreProtected` found: every changed path below a protected one (posix, sorted). */
export interface RestoreResult {
  tampered: string[];
}

/**
 * Normalises a protected path of the suite (`./test/` → `test`). Throws a ProtectError for an
 * empty, absolute or escaping path, the fixture itself (`.`), or a path inside `.git`.
 */
export function normalizeProtectedPath(entry: string): string {
  const invalid = (reason: string) => new ProtectError('GZ_BENCH_INVALID_PROTECT', entry, reason);
  if (entry === '') throw invalid('protected path is empty');
  if (entry.includes('\0')) throw invalid(`protected path contains a NUL character: ${JSON.stringify(entry)}`);
  if (posix.isAbsolute(entry)) throw invalid(`protected path must be relative to the fixture: ${entry}`);
  const normalized = posix.normalize(entry).replace(/\/+$/, '');
  if (normalized === '..' || normalized.startsWith('../')) throw invalid(`protected path leaves the fixture: ${entry}`);
  if (normalized === '.' || normalized === '') {
    throw invalid(`protected path must name a file or directory inside the fixture, not the fixture itself: ${entry}`);
  }
  if (isInsideGit(normalized)) throw invalid(`protected path is inside .git, which gz-bench manages: ${entry}`);
  return normalized;
}

/**
 * The paths of the fixture to protect: the normalised `protect` entries (files or directories), plus
 * every regular file of the fixture that a `command` check runs: the program of a simple command
 * (`./verify.sh`, `checks/run.sh`) or the script an interpreter runs (`bash checks/run.sh`,
 * `node test/check.js`, `python3 tests/check.py`), also inside `sh -c "…"`. Files a command only
 * reads or passes as arguments (`grep -qx src/sum.js`, `node check.js src/sum.js`) are not protected:
 * the agent may have to change them. Directories named by a command are not protected unless listed
 * in `protect`; globs are not expanded. Deduplicated and sorted. Throws a ProtectError for a `protect`
 * entry `normalizeProtectedPath` refuses; call `assertProtectable` on the result before running cases.
 */
export async function protectedPaths(
  fixtureDir: string,
  protect: string[],
  commandChecks: string[],
): Promise<string[]> {
  const paths = new Set(protect.map(normalizeProtectedPath));
  for (const run of commandChecks) {
    for (const word of executedFiles(run)) {
      const candidate = fixtureFileCandidate(word);
      if (candidate === undefined || paths.has(candidate)) continue;
      // stat, not lstat: a checker reached through a symlink is still named here, so that
      // assertProtectable refuses it with a clear message rather than the check failing later.
      const stats = await stat(join(fixtureDir, candidate)).catch(() => undefined);
      if (stats?.isFile()) paths.add(candidate);
    }
  }
  return [...paths].sort();
}

/** Programs that run the script named by their first argument that is not an option. */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'node',
  'nodejs',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
]);
/** Words that run the rest of the command line as a command of its own. */
const WRAPPERS = new Set(['exec', 'command', 'time', 'nohup', 'env', 'builtin']);

/**
 * The words of a command line that name programs or scripts it runs: per simple command (split at
 * unquoted `;`, `&`, `|`, parentheses, backticks and newlines), after variable assignments and
 * wrappers such as `env` or `exec`, the program itself, and for an interpreter its script, or the
 * command line it gets with `-c`, whose files are found the same way.
 */
function executedFiles(command: string, depth = 0): string[] {
  const files: string[] = [];
  for (const segment of simpleCommands(command)) {
    const words = shellWords(segment);
    let index = 0;
    while (
      index < words.length &&
      (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] as string) || WRAPPERS.has(words[index] as string))
    ) {
      index += 1;
    }
    const program = words[index];
    if (program === undefined) continue;
    files.push(program);
    if (!INTERPRETERS.has(posix.basename(program))) continue;
    const args = words.slice(index + 1);
    const inline = args.indexOf('-c');
    if (inline !== -1) {
      const script = args[inline + 1];
      if (script !== undefined && depth < 3) files.push(...executedFiles(script, depth + 1));
      continue;
    }
    const script = args.find((arg) => !arg.startsWith('-'));
    if (script !== undefined) files.push(script);
  }
  return files;
}

/** Splits a command line at unquoted command separators, keeping quotes for `shellWords`. */
function simpleCommands(command: string): string[] {
  const segments: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') {
        current += char + (command[index + 1] ?? '');
        index += 1;
        continue;
      }
      current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      current += char;
    } else if (char === '\\') {
      current += char + (command[index + 1] ?? '');
      index += 1;
    } else if (';&|()`\n'.includes(char)) {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments.filter((segment) => segment.trim() !== '');
}

/**
 * Splits a shell command line into words the way a reader would: on whitespace and the operators
 * ``;&|()<>` ``, with quotes removed and backslash escapes applied. Not a shell parser: expansions
 * stay literal.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    const next = command[index + 1];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        word += next;
        index += 1;
      } else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      // A backslash-newline joins lines; any other escaped character is literal.
      if (next !== undefined && next !== '\n') {
        word += next;
        inWord = true;
      }
      index += 1;
    } else if (/\s/.test(char) || SHELL_OPERATORS.includes(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const SHELL_OPERATORS = ';&|()<>`';

/** A command word as a path relative to the fixture, or undefined when it cannot name a fixture file. */
function fixtureFileCandidate(word: string): string | undefined {
  if (word === '' || word.includes('\0') || posix.isAbsolute(word)) return undefined;
  const normalized = posix.normalize(word);
  if (normalized === '.' || normalized === '..' || normalized.startsWith('../')) return undefined;
  if (normalized.endsWith('/') || isInsideGit(normalized)) return undefined;
  return normalized;
}

function isInsideGit(relativePath: string): boolean {
  return relativePath.split('/').some((part) => part.toLowerCase() === '.git');
}

/**
 * Throws a ProtectError unless every path (relative to the fixture) names a regular file or a
 * directory of the fixture reached without symlinks: `protected path is a symlink: checks/run.sh`,
 * `protected path passes through a symlink: checks/run.sh (checks is a symlink)`, `protected path does
 * not exist in the fixture: test/`. Messages name each path as given.
 */
export async function assertProtectable(fixtureDir: string, paths: string[]): Promise<void> {
  for (const entry of paths) {
    const normalized = normalizeProtectedPath(entry);
    const refuse = (message: string) => new ProtectError('GZ_BENCH_INVALID_PROTECT', entry, message);
    const parts = normalized.split('/');
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const prefix = parts.slice(0, depth).join('/');
      const stats = await lstat(join(fixtureDir, prefix)).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (stats === undefined) throw refuse(`protected path does not exist in the fixture: ${entry}`);
      const last = depth === parts.length;
      if (stats.isSymbolicLink()) {
        throw refuse(
          last
            ? `protected path is a symlink: ${entry}`
            : `protected path passes through a symlink: ${entry} (${prefix} is a symlink)`,
        );
      }
      if (!last && !stats.isDirectory()) throw refuse(`protected path does not exist in the fixture: ${entry}`);
      if (last && !stats.isFile() && !stats.isDirectory()) {
        throw refuse(`protected path is not a regular file or directory: ${entry}`);
      }
    }
  }
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

type Expected = 'file' | 'directory' | 'absent';

/** What the fixture holds at `path` as copyFixture would have copied it, with each ancestor's mode. */
async function fixtureView(
  fixtureDir: string,
  path: string,
  options: CopyFixtureOptions,
): Promise<{ kind: Expected; ancestorModes: number[] }> {
  const parts = path.split('/');
  const ancestorModes: number[] = [];
  for (let depth = 1; depth <= parts.length; depth += 1) {
    const prefix = parts.slice(0, depth).join('/');
    const stats = await lstatIfExists(join(fixtureDir, prefix));
    const kind = stats === undefined ? 'absent' : classifyFixtureEntry(prefix, stats, options);
    if (depth === parts.length)
      return { kind: kind === 'file' || kind === 'directory' ? kind : 'absent', ancestorModes };
    if (kind !== 'directory' || stats === undefined) return { kind: 'absent', ancestorModes };
    ancestorModes.push(stats.mode & COPIED_MODE_BITS);
  }
  return { kind: 'absent', ancestorModes };
}

/**
 * Whether the workspace's ancestors of `path` are all real directories (`reachable`), one is missing
 * (`missing`: nothing can be at the path), or one is a symlink or not a directory (`blocked`).
 */
async function workspaceView(workspace: string, path: string): Promise<{ kind: 'reachable' | 'missing' | 'blocked' }> {
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length; depth += 1) {
    const stats = await lstatIfExists(join(workspace, ...parts.slice(0, depth)));
    if (stats === undefined) return { kind: 'missing' };
    if (!stats.isDirectory()) return { kind: 'blocked' };
  }
  return { kind: 'reachable' };
}

/** Adds to `tampered` every path at or below `path` where the workspace differs from the fixture view. */
async function compareEntry(
  fixtureDir: string,
  workspace: string,
  path: string,
  expected: Expected,
  options: CopyFixtureOptions,
  tampered: Set<string>,
): Promise<void> {
  const actual = await lstatIfExists(join(workspace, path));
  if (expected === 'absent' || actual === undefined) {
    if (expected !== 'absent' || actual !== undefined) tampered.add(path);
    return;
  }
  const wanted = await lstat(join(fixtureDir, path));
  if (expected === 'file') {
    if (
      !actual.isFile() ||
      !sameMode(wanted, actual) ||
      !(await sameContent(fixtureDir, workspace, path, wanted, actual))
    ) {
      tampered.add(path);
    }
    return;
  }
  if (!actual.isDirectory()) {
    tampered.add(path);
    return;
  }
  if (!sameMode(wanted, actual)) tampered.add(path);
  let actualNames: string[];
  try {
    actualNames = await readdir(join(workspace, path));
  } catch {
    tampered.add(path);
    return;
  }
  const expectedNames = new Map<string, Expected>();
  for (const name of await readdir(join(fixtureDir, path))) {
    const child = `${path}/${name}`;
    const kind = classifyFixtureEntry(child, await lstat(join(fixtureDir, child)), options);
    if (kind === 'file' || kind === 'directory') expectedNames.set(name, kind);
  }
  for (const name of [...new Set([...expectedNames.keys(), ...actualNames])].sort()) {
    await compareEntry(
      fixtureDir,
      workspace,
      `${path}/${name}`,
      expectedNames.get(name) ?? 'absent',
      options,
      tampered,
    );
  }
}

function sameMode(a: Stats, b: Stats): boolean {
  return (a.mode & COPIED_MODE_BITS) === (b.mode & COPIED_MODE_BITS);
}

const CHUNK_BYTES = 64 * 1024;

/** Byte-for-byte equality of two regular files; an unreadable workspace file counts as different. */
async function sameContent(fixtureDir: string, workspace: string, path: string, a: Stats, b: Stats): Promise<boolean> {
  if (a.size !== b.size) return false;
  // NOFOLLOW and NONBLOCK: whatever lstat saw, never follow a link nor hang on a FIFO.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const left = await open(join(fixtureDir, path), flags);
  try {
    const right = await open(join(workspace, path), flags).catch(() => undefined);
    if (right === undefined) return false;
    try {
      const leftBuffer = Buffer.alloc(CHUNK_BYTES);
      const rightBuffer = Buffer.alloc(CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await left.read(leftBuffer, 0, CHUNK_BYTES, null);
        const { bytesRead: rightRead } = await readFully(right, rightBuffer, bytesRead);
        if (rightRead !== bytesRead || !leftBuffer.subarray(0, bytesRead).equals(rightBuffer.subarray(0, bytesRead))) {
          return false;
        }
        if (bytesRead === 0) return true;
      }
    } finally {
      await right.close();
    }
  } finally {
    await left.close();
  }
}

/** Reads `length` bytes unless the file ends first, so chunks of both files line up. */
async function readFully(
  handle: Awaited<ReturnType<typeof open>>,
  buffer: Buffer,
  length: number,
): Promise<{ bytesRead: number }> {
  let total = 0;
  while (total < length) {
    const { bytesRead } = await handle.read(buffer, total, length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return { bytesRead: total };
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

async function lstatIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
