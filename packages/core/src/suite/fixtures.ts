import { lstat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { assertProtectable, ProtectError, protectedPaths } from '../case/protect.js';
import { invalidSuiteError, type SuiteOrigin } from './errors.js';
import { type Suite, withSuiteSettings } from './schema.js';

/**
 * Checks what a suite names on disk: each fixture repository is a real directory, and each protected
 * path exists in it and is no symlink (one the agent could not be caught tampering through). Throws
 * a SuiteError naming the setting, like a schema error.
 */
export async function checkFixtures(suite: Suite, origin: Required<SuiteOrigin>): Promise<void> {
  for (const [index, ownCase] of suite.cases.entries()) {
    const testCase = withSuiteSettings(suite, ownCase);
    if (testCase.repo === undefined) continue;
    const repoAt = ownCase.repo !== undefined ? `cases[${index}].repo` : 'repo';
    const repo = resolve(dirname(origin.absoluteFile), testCase.repo);
    const problem = await repoProblem(repo);
    if (problem !== undefined) throw invalidSuiteError(repoAt, `${problem}: ${testCase.repo}`, origin);

    const protectAt = ownCase.protect !== undefined ? `cases[${index}].protect` : 'protect';
    const commands = testCase.checks.flatMap((check) => (check.kind === 'command' ? [check.run] : []));
    try {
      await assertProtectable(repo, await protectedPaths(repo, testCase.protect ?? [], commands));
    } catch (error) {
      if (error instanceof ProtectError) throw invalidSuiteError(protectAt, error.message, origin);
      throw error;
    }
  }
}

async function repoProblem(repo: string): Promise<string | undefined> {
  const stats = await lstat(repo).catch(() => undefined);
  if (!stats) return 'fixture repository not found';
  if (stats.isSymbolicLink()) return 'fixture repository is a symlink';
  if (!stats.isDirectory()) return 'fixture repository is not a directory';
  return undefined;
}
