import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGitBaseline,
  GIT_SAFE_CONFIG,
  GIT_SAFE_ENV,
  GitBaselineError,
  gitSafeConfigArgs,
  gitSafeEnv,
} from './git-baseline.js';
import { writeTree } from './test-support/fs-tree.js';

let root: string;
let dir: string;
/** A user's home with hostile git config, hooks and templates that the baseline must ignore. */
let home: string;
let env: Record<string, string>;

const MARKER = 'hook-ran';

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-git-')));
  dir = join(root, 'workspace');
  home = join(root, 'home');
  await mkdir(dir);
  const hook = `#!/bin/sh\ntouch "${join(root, MARKER)}"\nexit 1\n`;
  await writeTree(home, {
    'hooks/pre-commit': [hook, 0o755],
    'hooks/post-commit': [hook, 0o755],
    'template/hooks/pre-commit': [hook, 0o755],
    '.config/git/ignore': '*.log\n',
    '.gitconfig': [
      '[core]',
      `  hooksPath = ${join(home, 'hooks')}`,
      `  fsmonitor = ${join(home, 'hooks/pre-commit')}`,
      '[user]',
      '  name = Someone Else',
      '  email = someone@example.com',
      '[commit]',
      '  gpgSign = true',
      '[init]',
      '  defaultBranch = trunk',
      `  templateDir = ${join(home, 'template')}`,
      '',
    ].join('\n'),
  });
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    // Inherited git variables (as in a harness started from a git hook) must not steer the baseline.
    GIT_DIR: join(root, 'elsewhere'),
    GIT_INDEX_FILE: join(root, 'elsewhere-index'),
    GIT_TEMPLATE_DIR: join(home, 'template'),
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: 'Inherited Author',
  };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs git in `cwd` the way a check would: with the safe environment on top of the user's. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitSafeEnv(env), encoding: 'utf8' });
}

describe('createGitBaseline', () => {
  it('commits everything, ignored files included, as one commit on main', async () => {
    await writeTree(dir, {
      'README.md': '# x\n',
      'src/index.js': 'export {};\n',
      'run.sh': ['#!/bin/sh\n', 0o755],
      '.gitignore': 'dist/\n*.log\n',
      'dist/bundle.js': 'built\n',
      'debug.log': 'log\n',
    });

    const { commit } = await createGitBaseline(dir, env);

    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(commit);
    expect(git(dir, 'rev-list', '--count', 'HEAD').trim()).toBe('1');
    expect(git(dir, 'branch', '--show-current').trim()).toBe('main');
    expect(git(dir, 'ls-files').trim().split('\n')).toEqual([
      '.gitignore',
      'README.md',
      'debug.log',
      'dist/bundle.js',
      'run.sh',
      'src/index.js',
    ]);
    expect(git(dir, 'ls-files', '--stage', 'run.sh')).toMatch(/^100755 /);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'log', '-1', '--format=%an <%ae> %cn <%ce> %at %ct %s')).toBe(
      'gz-bench <gz-bench@localhost> gz-bench <gz-bench@localhost> 946684800 946684800 gz-bench baseline\n',
    );
    // Nothing went to the inherited GIT_DIR, and no hook, template hook or fsmonitor ran.
    expect(existsSync(join(root, 'elsewhere'))).toBe(false);
    expect(existsSync(join(root, MARKER))).toBe(false);
    expect(existsSync(join(dir, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('lets git diff and git status show what changed afterwards', async () => {
    await writeTree(dir, { 'src/sum.js': 'old\n', 'README.md': 'readme\n', 'gone.txt': 'x\n' });
    const { commit } = await createGitBaseline(dir, env);

    await writeFile(join(dir, 'src/sum.js'), 'new\n');
    await rm(join(dir, 'gone.txt'));
    await writeFile(join(dir, 'added.log'), 'new file\n');

    expect(git(dir, 'diff', '--name-only')).toBe('gone.txt\nsrc/sum.js\n');
    expect(git(dir, 'diff', '--name-only', commit)).toBe('gone.txt\nsrc/sum.js\n');
    // The user's global ignore (*.log) is not applied: the new file shows as untracked.
    expect(git(dir, 'status', '--porcelain')).toBe(' D gone.txt\n M src/sum.js\n?? added.log\n');
  });

  it('gives the same commit hash for the same files, wherever and whenever', async () => {
    const files = { 'a.txt': 'a\n', 'b/c.sh': ['#!/bin/sh\n', 0o755] as [string, number] };
    await writeTree(dir, files);
    const other = join(root, 'other-workspace');
    await writeTree(other, files);

    const first = await createGitBaseline(dir, env);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await createGitBaseline(other, { PATH: env.PATH ?? '' });

    expect(second.commit).toBe(first.commit);
    // Pinned (same as plain git with these files, identity and date): a change must be deliberate.
    expect(first.commit).toBe('4d4729f0e8ffb8889537d245614a70b65909cf7f');
    const third = join(root, 'third');
    await writeTree(third, { ...files, 'a.txt': 'different\n' });
    expect((await createGitBaseline(third, env)).commit).not.toBe(first.commit);
  });

  it('works on an empty workspace', async () => {
    const { commit } = await createGitBaseline(dir, env);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(commit);
    expect(git(dir, 'ls-files')).toBe('');
  });

  it('refuses a workspace that already has a .git', async () => {
    await writeTree(dir, { '.git/hooks/pre-commit': [`#!/bin/sh\ntouch "${join(root, MARKER)}"\n`, 0o755] });
    const attempt = createGitBaseline(dir, env);
    await expect(attempt).rejects.toBeInstanceOf(GitBaselineError);
    await expect(attempt).rejects.toMatchObject({
      code: 'GZ_BENCH_GIT_ALREADY_EXISTS',
      message: `cannot create the git baseline: ${dir} already has a .git`,
    });
    expect(existsSync(join(root, MARKER))).toBe(false);
  });

  it('refuses a workspace that is not a directory', async () => {
    await expect(createGitBaseline(join(root, 'missing'), env)).rejects.toMatchObject({
      code: 'GZ_BENCH_GIT_FAILED',
      message: `cannot create the git baseline: ${join(root, 'missing')} is not a directory`,
    });
  });

  it('says so when git is not installed', async () => {
    await writeTree(dir, { 'a.txt': 'a\n' });
    await expect(createGitBaseline(dir, { PATH: join(root, 'no-bin') })).rejects.toMatchObject({
      name: 'GitBaselineError',
      code: 'GZ_BENCH_GIT_NOT_FOUND',
      message: 'git is not installed or not on PATH; install git to compare workspaces with their fixture',
    });
  });

  it('reports a failing git command with its stderr', async () => {
    await writeTree(dir, { 'a.txt': 'a\n' });
    // A fake git that fails like a broken installation.
    await writeTree(root, { 'bin/git': ['#!/bin/sh\necho "fatal: broken git" >&2\nexit 128\n', 0o755] });
    await expect(createGitBaseline(dir, { PATH: join(root, 'bin') })).rejects.toMatchObject({
      code: 'GZ_BENCH_GIT_FAILED',
      message: `git init failed in ${dir}: fatal: broken git`,
    });
  });
});

describe('GIT_SAFE_ENV', () => {
  it('keeps hooks and fsmonitor planted in the repository from running in later git commands', async () => {
    await writeTree(dir, { 'a.txt': 'a\n' });
    await createGitBaseline(dir, env);
    const hook = `#!/bin/sh\ntouch "${join(root, MARKER)}"\nexit 1\n`;
    await writeTree(dir, { '.git/hooks/pre-commit': [hook, 0o755], '.git/hooks/fsmonitor': [hook, 0o755] });
    git(dir, 'config', 'core.fsmonitor', join(dir, '.git/hooks/fsmonitor'));
    git(dir, 'config', 'core.hooksPath', join(dir, '.git/hooks'));

    await writeFile(join(dir, 'a.txt'), 'changed\n');
    expect(git(dir, 'status', '--porcelain')).toBe(' M a.txt\n');
    execFileSync('git', ['commit', '-qam', 'agent commit'], {
      cwd: dir,
      env: {
        ...gitSafeEnv(env),
        GIT_AUTHOR_NAME: 'a',
        GIT_AUTHOR_EMAIL: 'a@a',
        GIT_COMMITTER_NAME: 'a',
        GIT_COMMITTER_EMAIL: 'a@a',
      },
    });

    expect(existsSync(join(root, MARKER))).toBe(false);
  });

  it('is the config as GIT_CONFIG_* variables, and the same config as -c arguments', () => {
    const count = Number(GIT_SAFE_ENV.GIT_CONFIG_COUNT);
    const fromEnv = Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        GIT_SAFE_ENV[`GIT_CONFIG_KEY_${index}`],
        GIT_SAFE_ENV[`GIT_CONFIG_VALUE_${index}`],
      ]),
    );
    expect(fromEnv).toEqual(GIT_SAFE_CONFIG);
    expect(gitSafeConfigArgs).toContain('core.hooksPath=/dev/null');
    expect(gitSafeConfigArgs).toContain('core.fsmonitor=false');
    expect(GIT_SAFE_ENV).toMatchObject({ GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });
  });

  it('drops inherited GIT_* variables in gitSafeEnv and keeps the rest', () => {
    const safe = gitSafeEnv({ PATH: '/bin', GIT_DIR: '/x', git_work_tree: '/y', HOME: '/h', UNSET: undefined });
    expect(safe).toEqual({ PATH: '/bin', HOME: '/h', ...GIT_SAFE_ENV });
  });
});
