import { cp, lstat, mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
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
export async function installVerifiers(source: string, area: CaseArea): Promise<string> {
  const target = verifyDirOf(area);
  // Made here, not by the copy: a directory at the path (which cp would merge into) fails the case.
  await mkdir(target, { mode: (await lstat(source)).mode & 0o7777 });
  // Symlinks stay links, never followed out of the verifier directory; the files keep their modes.
  await cp(source, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  return target;
}

/** Why `dir` cannot serve as a verifier directory, or undefined when it can. */
export async function verifierDirProblem(dir: string): Promise<string | undefined> {
  const stats = await lstat(dir).catch(() => undefined);
  if (stats === undefined) return 'verifier directory not found';
  if (stats.isSymbolicLink()) return 'verifier directory is a symlink';
  if (!stats.isDirectory()) return 'verifier directory is not a directory';
  return undefined;
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
