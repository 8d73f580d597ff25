import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  chmod,
  cp,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture } from '../workspace/copy-fixture.js';
import { removeTree } from '../workspace/remove-tree.js';
import { makeFifo, snapshotTree, writeTree } from '../workspace/test-support/fs-tree.js';
import { restoreProtected } from './restore.js';

const REPOS = fileURLToPath(new URL('../../../../fixtures/repos/', import.meta.url));
const AGENTS = fileURLToPath(new URL('../../../../fixtures/agents/', import.meta.url));

let root: string;
let fixture: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-protect-')));
  fixture = join(root, 'fixture');
  workspace = join(root, 'workspace');
  outside = join(root, 'outside');
  await writeTree(outside, { 'target.txt': 'outside file\n', 'dir/sum.test.mjs': 'process.exit(0);\n' });
});

afterEach(async () => {
  await removeTree(root);
});

/** Runs a fake agent from fixtures/agents in the workspace, as the runner would. */
function runAgent(name: string, ...args: string[]): void {
  execFileSync(process.execPath, [join(AGENTS, `${name}.mjs`), ...args], { cwd: workspace, stdio: 'pipe' });
}

describe('restoreProtected', () => {
  const PROTECTED = ['checks/run.sh', 'test'];
  let copied: Record<string, string>;
  let pristineFixture: Record<string, string>;

  beforeEach(async () => {
    await cp(join(REPOS, 'buggy-sum'), fixture, { recursive: true });
    await chmod(join(fixture, 'checks/run.sh'), 0o755);
    await mkdir(workspace);
    await copyFixture(fixture, workspace);
    copied = await snapshotTree(workspace);
    pristineFixture = await snapshotTree(fixture);
  });

  afterEach(async () => {
    // The fixture is only ever read, whatever the agent did.
    expect(await snapshotTree(fixture)).toEqual(pristineFixture);
  });

  async function restore(paths = PROTECTED): Promise<string[]> {
    const { tampered } = await restoreProtected(fixture, workspace, paths);
    return tampered;
  }

  it('reports nothing when the agent left protected paths alone, and keeps the workspace as it was', async () => {
    await writeFile(join(workspace, 'src/sum.js'), 'export const sum = (n) => n.reduce((a, b) => a + b, 0);\n');
    const before = await snapshotTree(workspace);
    expect(await restore()).toEqual([]);
    expect(await snapshotTree(workspace)).toEqual(before);
  });

  it('undoes a rewritten checker, so the cheat no longer passes', async () => {
    const check = () => spawnSync('sh', ['checks/run.sh'], { cwd: workspace }).status;
    expect(check()).toBe(1);
    runAgent('rewrite-checker', 'checks/run.sh');
    expect(check()).toBe(0);

    expect(await restore()).toEqual(['checks/run.sh']);

    expect(await snapshotTree(workspace)).toEqual(copied);
    expect(check()).toBe(1);
  });

  it('reports a rewritten test file inside a protected directory', async () => {
    runAgent('rewrite-checker', 'test/sum.test.mjs');
    expect(await readFile(join(workspace, 'test/sum.test.mjs'), 'utf8')).toBe('process.exit(0);\n');
    expect(await restore()).toEqual(['test/sum.test.mjs']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('restores deleted files and directories', async () => {
    runAgent('delete-path', 'checks/run.sh');
    runAgent('delete-path', 'test');
    expect(await restore()).toEqual(['checks/run.sh', 'test']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('restores a deleted parent directory of a protected file', async () => {
    await chmod(join(fixture, 'checks'), 0o750);
    await rm(workspace, { recursive: true });
    await mkdir(workspace);
    await copyFixture(fixture, workspace);
    copied = await snapshotTree(workspace);
    pristineFixture = await snapshotTree(fixture);

    runAgent('delete-path', 'checks');
    expect(await restore()).toEqual(['checks/run.sh']);
    expect(await snapshotTree(workspace)).toEqual(copied);
    expect((await stat(join(workspace, 'checks'))).mode & 0o777).toBe(0o750);
  });

  it('removes files added inside a protected directory', async () => {
    await writeTree(workspace, { 'test/extra.test.mjs': 'x', 'test/new/dir/file.txt': 'y', 'src/new.js': 'kept' });
    expect(await restore()).toEqual(['test/extra.test.mjs', 'test/new']);
    const { 'src/new.js': added, ...rest } = await snapshotTree(workspace);
    expect(added).toMatch(/^file /);
    expect(rest).toEqual(copied);
  });

  it('removes a tree nested past PATH_MAX inside a protected directory', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(AGENTS, 'deep-tree.mjs'), '600', 'lock'], {
      cwd: join(workspace, 'test'),
    });
    expect(stdout).toBe('deep tree made\n');
    expect(await restore()).toEqual([`test/${'d'.repeat(255)}`]);
    expect(await snapshotTree(workspace)).toEqual(copied);
  }, 30_000);

  it('restores changed permission bits of files and directories', async () => {
    await chmod(join(workspace, 'checks/run.sh'), 0o644);
    await chmod(join(workspace, 'test'), 0o700);
    expect(await restore()).toEqual(['checks/run.sh', 'test']);
    expect(await snapshotTree(workspace)).toEqual(copied);
    expect((await stat(join(workspace, 'checks/run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('restores a directory the agent made unreadable', async () => {
    await writeFile(join(workspace, 'test/sum.test.mjs'), 'process.exit(0);\n');
    await chmod(join(workspace, 'test'), 0);
    expect(await restore()).toContain('test');
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('restores a checker deleted from a directory the agent then made read-only', async () => {
    runAgent('delete-path', 'checks/run.sh');
    await chmod(join(workspace, 'checks'), 0o555);
    expect(await restore()).toEqual(['checks/run.sh']);
    expect(
      (await readFile(join(workspace, 'checks/run.sh'))).equals(await readFile(join(fixture, 'checks/run.sh'))),
    ).toBe(true);
  });

  it('replaces a checker swapped for a symlink without touching the symlink target', async () => {
    const target = join(outside, 'target.txt');
    runAgent('symlink-swap', 'checks/run.sh', target);
    expect(await restore()).toEqual(['checks/run.sh']);

    expect(await snapshotTree(workspace)).toEqual(copied);
    expect((await lstat(join(workspace, 'checks/run.sh'))).isFile()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('outside file\n');
  });

  it('replaces a protected directory swapped for a symlink, leaving the outside directory alone', async () => {
    const before = await snapshotTree(outside);
    runAgent('symlink-swap', 'test', join(outside, 'dir'));
    expect(await restore()).toEqual(['test']);
    expect(await snapshotTree(workspace)).toEqual(copied);
    expect(await snapshotTree(outside)).toEqual(before);
  });

  it('rebuilds a parent directory swapped for a symlink to the outside, without writing there', async () => {
    await writeTree(outside, { 'checks/run.sh': ['#!/bin/sh\nexit 0\n', 0o755], 'checks/other.txt': 'o' });
    const before = await snapshotTree(outside);
    runAgent('symlink-swap', 'checks', join(outside, 'checks'));
    // Relative links resolve too: a link that walks up and out of the workspace.
    runAgent('symlink-swap', 'test', '../outside/dir');

    expect(await restore()).toEqual(['checks/run.sh', 'test']);

    expect(await snapshotTree(workspace)).toEqual(copied);
    expect(await snapshotTree(outside)).toEqual(before);
  });

  it('reports and removes symlinks and FIFOs planted inside a protected directory', async () => {
    const before = await snapshotTree(outside);
    await symlink(outside, join(workspace, 'test/out-dir'));
    await symlink(join(outside, 'target.txt'), join(workspace, 'test/out-file'));
    await rm(join(workspace, 'test/sum.test.mjs'));
    await symlink(join(outside, 'dir/sum.test.mjs'), join(workspace, 'test/sum.test.mjs'));
    makeFifo(join(workspace, 'test/pipe'));

    expect(await restore()).toEqual(['test/out-dir', 'test/out-file', 'test/pipe', 'test/sum.test.mjs']);

    expect(await snapshotTree(workspace)).toEqual(copied);
    expect(await snapshotTree(outside)).toEqual(before);
  });

  it('restores a file replaced by a directory and a directory replaced by a file', async () => {
    await rm(join(workspace, 'checks/run.sh'));
    await writeTree(workspace, { 'checks/run.sh/inner.txt': 'x' });
    await rm(join(workspace, 'test'), { recursive: true });
    await writeFile(join(workspace, 'test'), 'not a directory\n');
    expect(await restore()).toEqual(['checks/run.sh', 'test']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('restores a parent directory replaced by a file', async () => {
    await rm(join(workspace, 'checks'), { recursive: true });
    await writeFile(join(workspace, 'checks'), 'x');
    expect(await restore()).toEqual(['checks/run.sh']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('detects a same-size change and a renamed-in replacement', async () => {
    const original = await readFile(join(workspace, 'test/sum.test.mjs'), 'utf8');
    await writeFile(join(workspace, 'test/sum.test.mjs'), original.replace('[]', '[0'.slice(0, 2)));
    await writeFile(join(workspace, 'replacement.sh'), await readFile(join(workspace, 'checks/run.sh')));
    await rename(join(workspace, 'replacement.sh'), join(workspace, 'checks/run.sh'));
    // Same content, but the mode of the replacement differs: reported.
    await chmod(join(workspace, 'checks/run.sh'), 0o644);
    expect(await restore()).toEqual(['checks/run.sh', 'test/sum.test.mjs']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('rebuilds protected files even when unchanged, cutting hard links the agent kept', async () => {
    await link(join(workspace, 'checks/run.sh'), join(workspace, 'handle'));
    expect(await restore()).toEqual([]);
    await writeFile(join(workspace, 'handle'), '#!/bin/sh\nexit 0\n');
    expect(await readFile(join(workspace, 'checks/run.sh'), 'utf8')).toBe(
      await readFile(join(fixture, 'checks/run.sh'), 'utf8'),
    );
  });

  it('treats a path below another protected path once', async () => {
    runAgent('rewrite-checker', 'test/sum.test.mjs');
    const { tampered } = await restoreProtected(fixture, workspace, ['test/sum.test.mjs', 'test/', 'test']);
    expect(tampered).toEqual(['test/sum.test.mjs']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('refuses a workspace that is no longer a directory', async () => {
    await rm(workspace, { recursive: true });
    await symlink(outside, workspace);
    await expect(restoreProtected(fixture, workspace, PROTECTED)).rejects.toMatchObject({
      name: 'ProtectError',
      code: 'GZ_BENCH_WORKSPACE_INVALID',
      message: `cannot restore protected paths: the workspace ${workspace} is no longer a directory`,
    });
    expect((await lstat(join(outside, 'target.txt'))).isFile()).toBe(true);
  });
});

describe('restoreProtected with what copyFixture skips', () => {
  beforeEach(async () => {
    await writeTree(fixture, { 'test/a.test.js': 'a', 'test/.env': 'TOKEN=x\n', 'test/b.txt': 'b' });
    await symlink('b.txt', join(fixture, 'test/link'));
    await mkdir(workspace);
  });

  it('sees the fixture as copied: skipped symlinks and secrets are expected absent', async () => {
    await copyFixture(fixture, workspace);
    const copied = await snapshotTree(workspace);
    expect(copied['test/.env']).toBeUndefined();
    expect((await restoreProtected(fixture, workspace, ['test'])).tampered).toEqual([]);

    await writeFile(join(workspace, 'test/.env'), 'TOKEN=planted\n');
    await symlink('a.test.js', join(workspace, 'test/link'));
    expect((await restoreProtected(fixture, workspace, ['test'])).tampered).toEqual(['test/.env', 'test/link']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('restores secrets too when they were copied', async () => {
    await copyFixture(fixture, workspace, { allowSecrets: true });
    const copied = await snapshotTree(workspace);
    await rm(join(workspace, 'test/.env'));
    const { tampered } = await restoreProtected(fixture, workspace, ['test'], { allowSecrets: true });
    expect(tampered).toEqual(['test/.env']);
    expect(await snapshotTree(workspace)).toEqual(copied);
  });

  it('keeps a protected secret absent', async () => {
    await copyFixture(fixture, workspace);
    expect((await restoreProtected(fixture, workspace, ['test/.env'])).tampered).toEqual([]);
    await writeFile(join(workspace, 'test/.env'), 'x');
    expect((await restoreProtected(fixture, workspace, ['test/.env'])).tampered).toEqual(['test/.env']);
    await expect(lstat(join(workspace, 'test/.env'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
