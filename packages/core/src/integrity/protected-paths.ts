import { lstat, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { executedFiles } from './command-files.js';
import { isMissing } from './fs-entries.js';
import { ProtectError } from './protect-error.js';

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

/** A command word as a path relative to the fixture, or undefined when it cannot name a fixture file. */
function fixtureFileCandidate(word: string): string | undefined {
  if (word === '' || word.includes('\0') || posix.isAbsolute(word)) return undefined;
  const normalized = posix.normalize(word);
  if (normalized === '.' || normalized === '..' || normalized.startsWith('../')) return undefined;
  if (normalized.endsWith('/') || isInsideGit(normalized)) return undefined;
  return normalized;
}

export function isInsideGit(relativePath: string): boolean {
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
