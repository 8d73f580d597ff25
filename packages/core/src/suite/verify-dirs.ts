import { dirname, posix, resolve } from 'node:path';
import { hiddenFixturePath, settingPaths, verifierDirProblem } from '../integrity/verifiers.js';
import { invalidSuiteError, type SuiteOrigin } from './errors.js';
import type { Suite } from './schema.js';

/**
 * Checks each verifier directory a suite names: a real directory, and not the fixture repository
 * itself (nothing would be left for the workspace). Throws a SuiteError naming the setting. Each
 * distinct directory is looked at once per load.
 */
export async function checkVerifyDirs(suite: Suite, origin: Required<SuiteOrigin>): Promise<void> {
  const suiteDir = dirname(origin.absoluteFile);
  const problems = new Map<string, Promise<string | undefined>>();
  for (const [index, ownCase] of suite.cases.entries()) {
    const setting = ownCase.verify ?? suite.verify;
    const base = ownCase.verify !== undefined ? `cases[${index}].verify` : 'verify';
    const listed = Array.isArray(setting);
    for (const [entry, path] of settingPaths(setting).entries()) {
      const at = listed ? `${base}[${entry}]` : base;
      const dir = resolve(suiteDir, path);
      const key = `${listed}\0${dir}`;
      let problem = problems.get(key);
      if (problem === undefined) {
        problem = verifierDirProblem(dir, listed);
        problems.set(key, problem);
      }
      const found = await problem;
      if (found !== undefined) throw invalidSuiteError(at, `${found}: ${path}`, origin);
      const repo = ownCase.repo ?? suite.repo;
      if (repo !== undefined && hiddenFixturePath(resolve(suiteDir, repo), dir) === '') {
        throw invalidSuiteError(at, `the verifier directory is the fixture repository itself: ${path}`, origin);
      }
    }
    const solution = ownCase.solutionFiles;
    const solutionListed = Array.isArray(solution);
    for (const [entry, path] of settingPaths(solution).entries()) {
      const at = solutionListed ? `cases[${index}].solutionFiles[${entry}]` : `cases[${index}].solutionFiles`;
      const found = await verifierDirProblem(resolve(suiteDir, path), true);
      if (found !== undefined) throw invalidSuiteError(at, `${found.replace('verifier', 'solution')}: ${path}`, origin);
    }
    for (const [entry, { from, to }] of (ownCase.files ?? []).entries()) {
      const at = `cases[${index}].files[${entry}]`;
      const badTo = startingFileTargetProblem(to);
      if (badTo !== undefined) throw invalidSuiteError(`${at}.to`, `${badTo}: ${to}`, origin);
      const found = await verifierDirProblem(resolve(suiteDir, from), true);
      if (found !== undefined)
        throw invalidSuiteError(`${at}.from`, `${found.replace('verifier ', '')}: ${from}`, origin);
    }
  }
}

/** Why a starting file's `to` would not land inside the workspace, or undefined when it does. */
function startingFileTargetProblem(to: string): string | undefined {
  if (to.startsWith('/')) return 'must be relative to the workspace';
  const normal = posix.normalize(to);
  if (normal === '..' || normal.startsWith('../')) return 'must stay inside the workspace';
  return undefined;
}
