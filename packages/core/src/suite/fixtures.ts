import { lstat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ProtectError } from '../integrity/protect-error.js';
import { assertProtectable, protectedPaths } from '../integrity/protected-paths.js';
import { invalidSuiteError, type SuiteOrigin } from './errors.js';
import type { Suite } from './schema.js';

/**
 * Checks what a suite names on disk: each fixture repository is a real directory, and each protected
 * path exists in it and is no symlink (one the agent could not be caught tampering through). Throws
 * a SuiteError naming the setting, like a schema error.
 *
 * Cases of a suite mostly share their repository, protected paths and checker commands, so each
 * distinct question (is this a repository, which files does this command run, is this path
 * protectable) is asked of the file system once per load: a suite of 10,000 cases costs as much as
 * one of its distinct settings, not 10,000 rounds of lstat. The answers, and which case and setting
 * the first problem is reported at, are the same as asking every case afresh.
 */
export async function checkFixtures(suite: Suite, origin: Required<SuiteOrigin>): Promise<void> {
  const ask = new FixtureQuestions();
  // Settings already found sound: a case that repeats them needs no await at all.
  const sound = new Set<string>();
  for (const [index, ownCase] of suite.cases.entries()) {
    // What withSuiteSettings gives the case for these two settings, without copying the whole case.
    const repoSetting = ownCase.repo ?? suite.repo;
    if (repoSetting === undefined) continue;
    const protect = ownCase.protect ?? suite.protect ?? [];
    const commands: string[] = [];
    for (const check of ownCase.checks) if (check.kind === 'command') commands.push(check.run);
    const settings = settingsKey(repoSetting, protect, commands);
    if (sound.has(settings)) continue;

    const repoAt = ownCase.repo !== undefined ? `cases[${index}].repo` : 'repo';
    const repo = resolve(dirname(origin.absoluteFile), repoSetting);
    const problem = await ask.repoProblem(repo);
    if (problem !== undefined) throw invalidSuiteError(repoAt, `${problem}: ${repoSetting}`, origin);

    const protectAt = ownCase.protect !== undefined ? `cases[${index}].protect` : 'protect';
    try {
      await ask.assertProtectable(repo, protect, commands);
    } catch (error) {
      if (error instanceof ProtectError) throw invalidSuiteError(protectAt, error.message, origin);
      throw error;
    }
    sound.add(settings);
  }
}

/**
 * One string per distinct (repo, protect, commands): none of them may hold a NUL (the schema refuses
 * it), so NUL separates them, and the count of protected paths tells where the commands begin.
 */
function settingsKey(repo: string, protect: string[], commands: string[]): string {
  return `${repo}\0${protect.length}\0${protect.join('\0')}\0${commands.join('\0')}`;
}

/** The file-system questions of one load, each asked once per repository and subject. */
class FixtureQuestions {
  readonly #repos = new Map<string, Promise<string | undefined>>();
  readonly #executed = new Map<string, Map<string, Promise<string[]>>>();
  readonly #protectable = new Map<string, Map<string, Promise<void>>>();

  repoProblem(repo: string): Promise<string | undefined> {
    return once(this.#repos, repo, () => repoProblem(repo));
  }

  /**
   * Same outcome as `assertProtectable(repo, await protectedPaths(repo, protect, commands))`: the
   * union of the files each command runs is the set `protectedPaths` builds from all of them, and
   * the paths are checked in the same sorted order, so the first refusal is the same one.
   */
  async assertProtectable(repo: string, protect: string[], commands: string[]): Promise<void> {
    // No command given: normalises the entries only, and refuses the ones that cannot be protected.
    const paths = new Set(await protectedPaths(repo, protect, []));
    const executed = inner(this.#executed, repo);
    for (const command of commands) {
      for (const path of await once(executed, command, () => protectedPaths(repo, [], [command]))) paths.add(path);
    }
    const protectable = inner(this.#protectable, repo);
    for (const path of [...paths].sort()) {
      await once(protectable, path, () => assertProtectable(repo, [path]));
    }
  }
}

function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (map === undefined) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}

/** The answer for `key`, asked the first time only. A rejection ends the load, so it is never reused. */
function once<V>(answers: Map<string, Promise<V>>, key: string, ask: () => Promise<V>): Promise<V> {
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = ask();
    answers.set(key, answer);
  }
  return answer;
}

async function repoProblem(repo: string): Promise<string | undefined> {
  const stats = await lstat(repo).catch(() => undefined);
  if (!stats) return 'fixture repository not found';
  if (stats.isSymbolicLink()) return 'fixture repository is a symlink';
  if (!stats.isDirectory()) return 'fixture repository is not a directory';
  return undefined;
}
