import { mkdir, mkdtemp, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CaseArea, createCaseArea, removeCaseArea } from '../workspace/case-area.js';
import { createCheckDirs } from '../workspace/check-dirs.js';
import { removeTree } from '../workspace/remove-tree.js';
import { hiddenFixturePath, installVerifiers, verifyDirOf } from './verifiers.js';

let root: string;
let area: CaseArea;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-verifiers-')));
  area = await createCaseArea({ parent: root, token: 'a'.repeat(32) });
  await mkdir(join(root, 'source', 'sub'), { recursive: true });
  await writeFile(join(root, 'source', 'run.sh'), 'exit 0\n', { mode: 0o755 });
  await writeFile(join(root, 'source', 'sub', 'data.txt'), 'data');
});
afterEach(async () => {
  await removeCaseArea(area).catch(() => {});
  await removeTree(root);
});

describe('installVerifiers', () => {
  it('copies the verifiers beside the workspace, and clears what commands left in the area root', async () => {
    await writeFile(join(area.root, 'conftest.py'), 'planted');
    await mkdir(join(area.root, 'verify'));
    await writeFile(join(area.root, 'verify', 'conftest.py'), 'planted');
    await writeFile(join(area.workspace, 'kept.txt'), 'the agent’s work');
    await createCheckDirs(area);
    expect(await installVerifiers([join(root, 'source')], area)).toBe(verifyDirOf(area));
    expect((await readdir(area.root)).sort()).toEqual([
      'check-home',
      'check-tmp',
      'home',
      'owner.json',
      'tmp',
      'verify',
      'workspace',
    ]);
    expect((await readdir(verifyDirOf(area))).sort()).toEqual(['run.sh', 'sub']);
    expect(await readFile(join(verifyDirOf(area), 'sub', 'data.txt'), 'utf8')).toBe('data');
    expect(await readFile(join(area.workspace, 'kept.txt'), 'utf8')).toBe('the agent’s work');
  });

  it('refuses to copy into a verify directory that is there after all', async () => {
    await createCheckDirs(area);
    await mkdir(join(area.root, 'verify'));
    await expect(installVerifiers([join(root, 'source')], area)).rejects.toThrow();
  });

  it('removes a verify symlink the agent made, without touching its target', async () => {
    await mkdir(join(root, 'elsewhere'));
    await symlink(join(root, 'elsewhere'), join(area.root, 'verify'));
    await createCheckDirs(area);
    await installVerifiers([join(root, 'source')], area);
    expect(await readdir(join(root, 'elsewhere'))).toEqual([]);
    expect((await readdir(verifyDirOf(area))).sort()).toEqual(['run.sh', 'sub']);
  });
});

describe('hiddenFixturePath', () => {
  it.each([
    ['/s/repo', '/s/repo/tests', 'tests'],
    ['/s/repo', '/s/repo/a/b', 'a/b'],
    ['/s/repo', '/s/repo', ''],
    ['/s/repo', '/s/verify', undefined],
    ['/s/repo', '/s/repository/tests', undefined],
    ['/s/repo', '/s', undefined],
  ])('%s, %s → %j', (repo, verify, expected) => {
    expect(hiddenFixturePath(repo, verify)).toBe(expected);
  });
});
