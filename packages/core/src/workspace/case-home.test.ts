import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_GIT_CONFIG } from './agent-git.js';
import { homePathProblem, seedCaseHome } from './case-home.js';
import { removeTree } from './remove-tree.js';

let root: string;
let realHome: string;
let home: string;
let area: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-case-home-')));
  realHome = join(root, 'real-home');
  area = join(root, 'area');
  home = join(area, 'home');
  await mkdir(realHome);
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await removeTree(root);
});

/** Every entry under `dir` as `path` (directories end in /), sorted. */
async function tree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    const stats = await lstat(path);
    if (stats.isDirectory()) out.push(`${prefix}${name}/`, ...(await tree(path, `${prefix}${name}/`)));
    else out.push(`${prefix}${name}${stats.isSymbolicLink() ? ' -> link' : ''}`);
  }
  return out;
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('seedCaseHome', () => {
  it("writes the agent's git config, owner-only, into an otherwise empty HOME", async () => {
    const warnings = await seedCaseHome({ home, realHome, area });
    expect(warnings).toEqual([]);
    expect(await tree(home)).toEqual(['.gitconfig']);
    expect(await readFile(join(home, '.gitconfig'), 'utf8')).toBe(AGENT_GIT_CONFIG);
    expect(AGENT_GIT_CONFIG).toContain('name = gz-bench agent');
    expect(AGENT_GIT_CONFIG).toContain('email = agent@gz-bench.invalid');
    expect(await mode(join(home, '.gitconfig'))).toBe(0o600);
  });

  it('writes home files with mode 0600, making their directories (0700)', async () => {
    const warnings = await seedCaseHome({
      home,
      realHome,
      area,
      files: [
        { path: '.gemini/settings.json', content: '{"telemetry":false}' },
        { path: './a//b/c.txt', content: 'c' },
      ],
    });
    expect(warnings).toEqual([]);
    expect(await readFile(join(home, '.gemini/settings.json'), 'utf8')).toBe('{"telemetry":false}');
    expect(await readFile(join(home, 'a/b/c.txt'), 'utf8')).toBe('c');
    expect(await mode(join(home, '.gemini/settings.json'))).toBe(0o600);
    expect(await mode(join(home, '.gemini'))).toBe(0o700);
    expect(await mode(join(home, 'a/b'))).toBe(0o700);
  });

  it('copies login files and directories from the real HOME, as owner-only writable copies', async () => {
    await writeFile(join(realHome, '.claude.json'), '{"token":"t"}', { mode: 0o444 });
    await mkdir(join(realHome, '.codex/sessions'), { recursive: true });
    await writeFile(join(realHome, '.codex/auth.json'), 'auth');
    await writeFile(join(realHome, '.codex/sessions/1.jsonl'), 'one');
    await writeFile(join(realHome, '.codex/hook.sh'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(join(realHome, 'unrelated'), 'not asked for');
    const warnings = await seedCaseHome({ home, realHome, area, login: ['.claude.json', '.codex/'] });
    expect(warnings).toEqual([]);
    expect(await tree(home)).toEqual([
      '.claude.json',
      '.codex/',
      '.codex/auth.json',
      '.codex/hook.sh',
      '.codex/sessions/',
      '.codex/sessions/1.jsonl',
      '.gitconfig',
    ]);
    expect(await readFile(join(home, '.codex/sessions/1.jsonl'), 'utf8')).toBe('one');
    expect(await mode(join(home, '.claude.json'))).toBe(0o600);
    expect(await mode(join(home, '.codex/hook.sh'))).toBe(0o700);
    expect(await mode(join(home, '.codex/sessions'))).toBe(0o700);
  });

  it('a home file wins over a login copy of the same path; a login .gitconfig over the agent identity', async () => {
    await mkdir(join(realHome, '.gemini'));
    await writeFile(join(realHome, '.gemini/settings.json'), 'mine');
    await writeFile(join(realHome, '.gemini/oauth.json'), 'oauth');
    await writeFile(join(realHome, '.gitconfig'), '[user]\n\tname = Me\n');
    const warnings = await seedCaseHome({
      home,
      realHome,
      area,
      login: ['.gemini', '.gitconfig'],
      files: [{ path: '.gemini/settings.json', content: 'preset' }],
    });
    expect(warnings).toEqual([]);
    expect(await readFile(join(home, '.gemini/settings.json'), 'utf8')).toBe('preset');
    expect(await readFile(join(home, '.gemini/oauth.json'), 'utf8')).toBe('oauth');
    expect(await readFile(join(home, '.gitconfig'), 'utf8')).toBe('[user]\n\tname = Me\n');
    expect(await readFile(join(realHome, '.gemini/settings.json'), 'utf8')).toBe('mine');
  });

  it('warns about a login path that does not exist, and copies the others', async () => {
    await writeFile(join(realHome, '.present'), 'x');
    const warnings = await seedCaseHome({ home, realHome, area, login: ['.missing/auth.json', '.present'] });
    expect(warnings).toEqual([
      `the agent's login .missing/auth.json was not copied: ${realHome}/.missing/auth.json: it does not exist`,
    ]);
    expect(await tree(home)).toEqual(['.gitconfig', '.present']);
  });

  it('passes over a missing login path without a word when the login is optional (a preset run on a key)', async () => {
    await writeFile(join(realHome, '.present'), 'x');
    const login = ['.missing/auth.json', '.present'];
    expect(await seedCaseHome({ home, realHome, area, login, loginOptional: true })).toEqual([]);
    expect(await tree(home)).toEqual(['.gitconfig', '.present']);
  });

  it('never follows a symlink out of HOME, and follows one that stays inside', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret'), 'not the agent’s');
    await symlink(join(outside, 'secret'), join(realHome, '.leak'));
    await symlink(outside, join(realHome, '.leak-dir'));
    await mkdir(join(realHome, 'dotfiles'));
    await writeFile(join(realHome, 'dotfiles/tool.json'), 'tool');
    await symlink('dotfiles/tool.json', join(realHome, '.tool.json'));
    const warnings = await seedCaseHome({ home, realHome, area, login: ['.leak', '.leak-dir/secret', '.tool.json'] });
    expect(warnings).toEqual([
      `the agent's login .leak was not copied: ${realHome}/.leak leads outside HOME (to ${outside}/secret)`,
      `the agent's login .leak-dir/secret was not copied: ${realHome}/.leak-dir/secret leads outside HOME (to ${outside}/secret)`,
    ]);
    expect(await tree(home)).toEqual(['.gitconfig', '.tool.json']);
    // A copy, not a link: writing it cannot reach the real file.
    expect((await lstat(join(home, '.tool.json'))).isFile()).toBe(true);
  });

  it('inside a login directory, copies links to files in HOME and names what it skips', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret'), 's');
    await mkdir(join(realHome, '.agent/sub'), { recursive: true });
    await writeFile(join(realHome, '.agent/real.json'), 'real');
    await symlink('real.json', join(realHome, '.agent/alias.json'));
    await symlink(join(outside, 'secret'), join(realHome, '.agent/out'));
    await symlink('sub', join(realHome, '.agent/sub-link'));
    await symlink('gone', join(realHome, '.agent/broken'));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(realHome, '.agent/sock'), resolve));
    try {
      const warnings = await seedCaseHome({ home, realHome, area, login: ['.agent'] });
      expect(warnings).toEqual([
        "the agent's login .agent: 4 entries not copied: .agent/broken (a broken symlink), .agent/out (a symlink that leads outside HOME), .agent/sock (not a file or directory), .agent/sub-link (a symlink to a directory)",
      ]);
    } finally {
      server.close();
    }
    expect(await tree(join(home, '.agent'))).toEqual(['alias.json', 'real.json', 'sub/']);
    expect(await readFile(join(home, '.agent/alias.json'), 'utf8')).toBe('real');
  });

  it('refuses a login that is HOME itself through a link', async () => {
    await symlink('.', join(realHome, 'self'));
    const warnings = await seedCaseHome({ home, realHome, area, login: ['self'] });
    expect(warnings).toEqual([
      `the agent's login self was not copied: ${realHome}/self leads outside HOME (to ${realHome})`,
    ]);
  });

  it('never copies the case area, when the real HOME holds the temp dir', async () => {
    // The area lies inside the login directory: copying it would copy the copy.
    const homeWithTmp = root;
    const warnings = await seedCaseHome({ home, realHome: homeWithTmp, area, login: ['real-home', 'area'] });
    expect(warnings).toEqual([]);
    expect(await tree(home)).toEqual(['.gitconfig', 'real-home/']);
  });

  it('says so when there is no real HOME to copy logins from', async () => {
    expect(await seedCaseHome({ home, realHome: undefined, area, login: ['.x'] })).toEqual([
      "the agent's login files were not copied: HOME is not set in gz-bench's environment",
    ]);
    expect(await tree(home)).toEqual(['.gitconfig']);
  });
});

describe('homePathProblem', () => {
  it.each(['.claude.json', '.config/gh/hosts.yml', './x', 'a/./b', 'dir/'])('accepts %j', (path) => {
    expect(homePathProblem(path)).toBeUndefined();
  });

  it.each([
    ['', 'must be a non-empty path'],
    ['/etc/passwd', 'must be relative to HOME, not absolute'],
    ['../other/.ssh', 'may not contain ".." (it must stay inside HOME)'],
    ['.config/../../x', 'may not contain ".." (it must stay inside HOME)'],
    ['.', 'must name a file or directory inside HOME'],
    ['./', 'must name a file or directory inside HOME'],
    ['a\0b', 'may not contain a NUL character'],
  ])('refuses %j: %s', (path, message) => {
    expect(homePathProblem(path)).toBe(message);
  });
});
