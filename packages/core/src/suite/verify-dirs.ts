import { dirname, resolve } from 'node:path';
import { hiddenFixturePath, verifierDirProblem } from '../integrity/verifiers.js';
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
    if (setting === undefined) continue;
    const at = ownCase.verify !== undefined ? `cases[${index}].verify` : 'verify';
    const dir = resolve(suiteDir, setting);
    let problem = problems.get(dir);
    if (problem === undefined) {
      problem = verifierDirProblem(dir);
      problems.set(dir, problem);
    }
    const found = await problem;
    if (found !== undefined) throw invalidSuiteError(at, `${found}: ${setting}`, origin);
    const repo = ownCase.repo ?? suite.repo;
    if (repo !== undefined && hiddenFixturePath(resolve(suiteDir, repo), dir) === '') {
      throw invalidSuiteError(at, `the verifier directory is the fixture repository itself: ${setting}`, origin);
    }
  }
}
