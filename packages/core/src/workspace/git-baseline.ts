import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Git configuration that every git command gz-bench runs in a workspace, and every `command` check,
 * gets on top of whatever config files exist: no hooks, no fsmonitor daemon or command, no user-wide
 * ignore or attributes file, no signing, no automatic gc, `main` as the first branch. Given on the
 * command line (or through `GIT_CONFIG_COUNT`), it wins over a `.git/config` the agent may have edited.
 */
export const GIT_SAFE_CONFIG: Readonly<Record<string, string>> = Object.freeze({
  'core.hooksPath': '/dev/null',
  'core.fsmonitor': 'false',
  'core.excludesFile': '/dev/null',
  'core.attributesFile': '/dev/null',
  'commit.gpgSign': 'false',
  'tag.gpgSign': 'false',
  'gc.auto': '0',
  'maintenance.auto': 'false',
  'init.defaultBranch': 'main',
});

/** `GIT_SAFE_CONFIG` as `-c key=value` arguments, for a git command line that cannot take `GIT_SAFE_ENV`. */
export const gitSafeConfigArgs: readonly string[] = Object.freeze(
  Object.entries(GIT_SAFE_CONFIG).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
);

/**
 * Environment that makes any git command ignore the user's global and system config and apply
 * `GIT_SAFE_CONFIG` (through `GIT_CONFIG_COUNT`, git ≥ 2.31), without prompting for credentials.
 * Merge it with `gitSafeEnv`, which also drops inherited `GIT_*` variables.
 */
export const GIT_SAFE_ENV: Readonly<Record<string, string>> = Object.freeze({
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_COUNT: String(Object.keys(GIT_SAFE_CONFIG).length),
  ...Object.fromEntries(
    Object.entries(GIT_SAFE_CONFIG).flatMap(([key, value], index) => [
      [`GIT_CONFIG_KEY_${index}`, key],
      [`GIT_CONFIG_VALUE_${index}`, value],
    ]),
  ),
});

/**
 * `env` without any inherited `GIT_*` variable, plus `GIT_SAFE_ENV`. A harness started from a git hook
 * inherits `GIT_DIR` and `GIT_INDEX_FILE`, which would point every git command at the wrong repository.
 */
export function gitSafeEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.toUpperCase().startsWith('GIT_')) safe[name] = value;
  }
  return { ...safe, ...GIT_SAFE_ENV };
}

/** Author and committer of every baseline commit; with the fixed date, equal trees give equal hashes. */
export const GIT_BASELINE_IDENTITY: Readonly<Record<string, string>> = Object.freeze({
  GIT_AUTHOR_NAME: 'gz-bench',
  GIT_AUTHOR_EMAIL: 'gz-bench@localhost',
  GIT_AUTHOR_DATE: '@946684800 +0000',
  GIT_COMMITTER_NAME: 'gz-bench',
  GIT_COMMITTER_EMAIL: 'gz-bench@localhost',
  GIT_COMMITTER_DATE: '@946684800 +0000',
});

/** Message of the baseline commit. */
export const GIT_BASELINE_MESSAGE = 'gz-bench baseline';

/** The commit `createGitBaseline` made. */
export interface GitBaseline {
  /** Full hash of the baseline commit on `main`: `git diff <commit>` shows the agent's changes. */
  commit: string;
}

/** Stable codes of the ways a git baseline can fail; match on these, never on messages. */
export type GitBaselineErrorCode = 'GZ_BENCH_GIT_NOT_FOUND' | 'GZ_BENCH_GIT_FAILED' | 'GZ_BENCH_GIT_ALREADY_EXISTS';

/** The workspace could not be made a git repository; the message says which command failed and why. */
export class GitBaselineError extends Error {
  override readonly name = 'GitBaselineError';
  readonly code: GitBaselineErrorCode;

  constructor(code: GitBaselineErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}

/**
 * Makes the workspace `dir` a git repository on branch `main` with one commit of everything in it,
 * ignored files included, so checks can run `git diff` and `git status` against it. `env` is the
 * environment git starts from (it needs `PATH`); inherited `GIT_*` variables are dropped, the user's
 * global and system config are not read, hooks and templates do not run, and author, committer and
 * dates are fixed, so the same files always give the same commit hash. Throws a GitBaselineError when
 * git is missing, fails, or `dir` already has a `.git`.
 */
export async function createGitBaseline(dir: string, env: Record<string, string>): Promise<GitBaseline> {
  const stats = await lstat(dir).catch(() => undefined);
  if (!stats?.isDirectory()) {
    throw new GitBaselineError('GZ_BENCH_GIT_FAILED', `cannot create the git baseline: ${dir} is not a directory`);
  }
  const existing = await lstat(join(dir, '.git')).catch(() => undefined);
  if (existing !== undefined) {
    throw new GitBaselineError(
      'GZ_BENCH_GIT_ALREADY_EXISTS',
      `cannot create the git baseline: ${dir} already has a .git`,
    );
  }
  const gitEnv = { ...gitSafeEnv(env), ...GIT_BASELINE_IDENTITY };
  const git = (args: string[]) => runGit(dir, gitEnv, args);
  // An empty template: no sample hooks, no info/exclude from the system's template directory.
  await git(['init', '--quiet', '--template=', '--initial-branch=main']);
  // --force: files the fixture's .gitignore ignores are part of the baseline too.
  await git(['add', '--all', '--force', '--', '.']);
  await git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '--allow-empty', '--message', GIT_BASELINE_MESSAGE]);
  const commit = (await git(['rev-parse', '--verify', 'HEAD'])).trim();
  return { commit };
}

function runGit(cwd: string, env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...gitSafeConfigArgs, ...args],
      { cwd, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          reject(
            new GitBaselineError(
              'GZ_BENCH_GIT_NOT_FOUND',
              'git is not installed or not on PATH; install git to compare workspaces with their fixture',
              error,
            ),
          );
          return;
        }
        const reason = stderr.trim() || error.message;
        reject(new GitBaselineError('GZ_BENCH_GIT_FAILED', `git ${args[0]} failed in ${cwd}: ${reason}`, error));
      },
    );
  });
}
