import { cp, lstat, mkdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Suite } from '../suite/schema.js';
import type { CaseArea } from '../workspace/case-area.js';

// Hidden verifiers are checker files the agent never sees: they reach the case area only once the
// agent's whole process tree is dead, beside the workspace and never in it, so that the agent can
// neither read them nor leave anything they pick up as configuration (a conftest.py, a pytest.ini).

/** The verifiers' directory in a case area, `{{verify}}`: outside the workspace. */
export function verifyDirOf(area: CaseArea): string {
  return join(area.root, 'verify');
}

/**
 * Call after `createCheckDirs`, which cleared the area root of whatever the case's commands left
 * there (a `verify` directory made in advance among them): copies `source` to `verifyDirOf(area)`,
 * failing should anything be at that path after all. Returns that directory.
 */
export async function installVerifiers(sources: readonly string[], area: CaseArea): Promise<string> {
  return installMerged(sources, verifyDirOf(area));
}

/**
 * Copies `sources` into `target`, which must not exist: a directory's entries merged into it, a file
 * under its own name (Terminal-Bench's run-tests.sh beside its tests/). Two sources with one name fail.
 */
export async function installMerged(sources: readonly string[], target: string): Promise<string> {
  const first = sources.find(Boolean);
  const firstStats = first === undefined ? undefined : await lstat(first);
  // Made here, not by the copy: a directory at the path (which cp would merge into) fails the case.
  await mkdir(target, { mode: firstStats?.isDirectory() ? firstStats.mode & 0o7777 : 0o755 });
  for (const source of sources) {
    const into = (await lstat(source)).isDirectory() ? target : join(target, basename(source));
    // Symlinks stay links, never followed out of the verifier directory; the files keep their modes.
    await cp(source, into, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  }
  return target;
}

/** Why `dir` cannot serve as a verifier directory, or undefined when it can. */
export async function verifierDirProblem(dir: string, fileAllowed = false): Promise<string | undefined> {
  const stats = await lstat(dir).catch(() => undefined);
  if (stats === undefined) return fileAllowed ? 'verifier path not found' : 'verifier directory not found';
  if (stats.isSymbolicLink()) return fileAllowed ? 'verifier path is a symlink' : 'verifier directory is a symlink';
  if (fileAllowed && stats.isFile()) return undefined;
  if (!stats.isDirectory())
    return fileAllowed ? 'verifier path is neither a file nor a directory' : 'verifier directory is not a directory';
  return undefined;
}

/**
 * Every verifier and solution path the suite file `file` names (absolute; cases' own and the suite's):
 * what the sandbox hides from every case of a run, so no agent reads another case's tests.
 */
export function suiteSecretPaths(suite: Suite, file: string): string[] {
  const paths = new Set<string>();
  for (const testCase of suite.cases) {
    for (const path of [...settingPaths(testCase.verify ?? suite.verify), ...settingPaths(testCase.solutionFiles)]) {
      paths.add(resolve(dirname(file), path));
    }
  }
  return [...paths];
}

/** A `verify` or `solutionFiles` setting as the list of paths it names. */
export function settingPaths(setting: string | readonly string[] | undefined): readonly string[] {
  return setting === undefined ? [] : typeof setting === 'string' ? [setting] : setting;
}

/**
 * The verifier directory's path relative to the fixture repository (posix), when it lies inside it:
 * that part of the fixture is left out of the workspace. Undefined when it lies elsewhere; '' when it
 * is the repository itself (which validation refuses).
 */
export function hiddenFixturePath(repo: string, verifyDir: string): string | undefined {
  const inside = relative(repo, verifyDir);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  return inside.split(sep).join('/');
}
