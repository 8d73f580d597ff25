import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compileForChild } from '../process/test-support/child-modules.js';
import { agent } from '../process/test-support/processes.js';
import { RemoveTreeError, removeTree, removeTreeSync, restoreOwnerAccess, SYNC_ENTRY_BUDGET } from './remove-tree.js';

const run = promisify(execFile);
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const DEPTH = 600;

let parent: string;

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-remove-test-')));
});

afterEach(async () => {
  // Tests leave directories of mode 0500 behind, which an ordinary user cannot empty as they are.
  await run('chmod', ['-R', 'u+rwx', '--', parent]);
  await run('rm', ['-rf', '--', parent]);
});

/** Runs the deep-tree fake agent in `dir`, as `uid` when given: 600 levels of 255-character names. */
async function makeDeepTree(dir: string, options: { lock?: boolean; uid?: number } = {}): Promise<void> {
  let command = agent('deep-tree', String(DEPTH), options.lock ? 'lock' : '');
  if (options.uid !== undefined) {
    // Another user may not reach the checkout (a clone under a private directory): give it a copy.
    const script = join(parent, 'deep-tree.mjs');
    await copyFile(fileURLToPath(new URL('../../../../fixtures/agents/deep-tree.mjs', import.meta.url)), script);
    await chmod(script, 0o644);
    command = [process.execPath, script, String(DEPTH), options.lock ? 'lock' : ''].map((arg) => `'${arg}'`).join(' ');
  }
  const ids = options.uid === undefined ? {} : { uid: options.uid, gid: options.uid };
  const { stdout } = await run('/bin/sh', ['-c', command], { cwd: dir, ...ids });
  expect(stdout).toBe('deep tree made\n');
}

describe('removeTree', () => {
  it('removes a tree nested past PATH_MAX, with a directory of mode 000 halfway down', async () => {
    const tree = join(parent, 'tree');
    await mkdir(tree);
    await makeDeepTree(tree, { lock: true });
    // What every walk with absolute paths meets down there.
    await expect(rm(tree, { recursive: true, force: true })).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
  }, 30_000);

  it('removeTreeSync removes the same tree', async () => {
    const tree = join(parent, 'tree');
    await mkdir(tree);
    await makeDeepTree(tree, { lock: true });
    removeTreeSync(tree);
    expect(existsSync(tree)).toBe(false);
  }, 30_000);

  it('never follows a symlink: neither one inside the tree nor the path itself', async () => {
    const outside = join(parent, 'outside');
    await mkdir(join(outside, 'inner'), { recursive: true });
    await writeFile(join(outside, 'inner', 'keep.txt'), 'precious');
    await chmod(join(outside, 'inner'), 0o500);
    const tree = join(parent, 'tree');
    await mkdir(tree);
    await makeDeepTree(tree);
    // A link beside the deep part, so that removal takes the fallback with it in the tree.
    await symlink(outside, join(tree, 'link'));
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
    const link = join(parent, 'link');
    await symlink(outside, link);
    await removeTree(link);
    expect(existsSync(link)).toBe(false);
    expect(await readFile(join(outside, 'inner', 'keep.txt'), 'utf8')).toBe('precious');
    expect((await lstat(join(outside, 'inner'))).mode & 0o7777).toBe(0o500);
  }, 30_000);

  it('removes a small tree with links out of it as links, whatever they point at', async () => {
    const outside = join(parent, 'outside');
    await mkdir(join(outside, 'inner'), { recursive: true });
    await writeFile(join(outside, 'inner', 'keep.txt'), 'precious');
    const tree = join(parent, 'tree');
    await mkdir(join(tree, 'workspace', 'src'), { recursive: true });
    await writeFile(join(tree, 'workspace', 'src', 'a.txt'), 'a');
    await symlink(outside, join(tree, 'workspace', 'dir-link'));
    await symlink(join(outside, 'inner', 'keep.txt'), join(tree, 'workspace', 'src', 'file-link'));
    await symlink(join(parent, 'nowhere'), join(tree, 'dangling'));
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
    expect(await readFile(join(outside, 'inner', 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('removes a tree of more entries than it removes synchronously, in one directory and nested', async () => {
    const tree = join(parent, 'tree');
    await mkdir(join(tree, 'flat'), { recursive: true });
    for (let index = 0; index < SYNC_ENTRY_BUDGET + 10; index += 1)
      await writeFile(join(tree, 'flat', `f${index}`), '');
    let nested = join(tree, 'nested');
    for (let depth = 0; depth < SYNC_ENTRY_BUDGET + 10; depth += 1) nested = join(nested, 'd');
    await mkdir(nested, { recursive: true });
    await writeFile(join(nested, 'last.txt'), 'deep');
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
  });

  it('removes a small tree that holds a directory of mode 0500', async () => {
    const tree = join(parent, 'tree');
    await mkdir(join(tree, 'locked'), { recursive: true });
    await writeFile(join(tree, 'locked', 'file.txt'), 'x');
    await chmod(join(tree, 'locked'), 0o500);
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
  });

  it('is a no-op for a path that does not exist, and refuses a relative path or /', async () => {
    await expect(removeTree(join(parent, 'missing'))).resolves.toBeUndefined();
    await expect(removeTree('relative/path')).rejects.toThrow(TypeError);
    expect(() => removeTreeSync('/')).toThrow(TypeError);
  });
});

describe('restoreOwnerAccess', () => {
  it('adds owner rwx to directories at any depth, keeping the other bits', async () => {
    const tree = join(parent, 'tree');
    await mkdir(tree);
    await makeDeepTree(tree, { lock: true });
    await chmod(tree, 0o050);
    await restoreOwnerAccess(tree);
    expect((await lstat(tree)).mode & 0o7777).toBe(0o750);
    // The directory the agent locked, halfway down, is reachable again by relative steps only.
    const locked = `const fs = require('node:fs');
      for (let level = 1; level < ${DEPTH / 2}; level++) process.chdir('d'.repeat(255));
      process.stdout.write(String(fs.lstatSync('d'.repeat(255)).mode & 0o7777));`;
    expect((await run(process.execPath, ['-e', locked], { cwd: tree })).stdout).toBe(String(0o700));
  }, 30_000);

  it('never follows a symlink given as the path', async () => {
    const target = join(parent, 'target');
    await mkdir(join(target, 'inner'), { recursive: true });
    await chmod(join(target, 'inner'), 0o500);
    await chmod(target, 0o500);
    await symlink(target, join(parent, 'link'));
    await restoreOwnerAccess(join(parent, 'link'));
    expect((await lstat(target)).mode & 0o7777).toBe(0o500);
    expect((await lstat(join(target, 'inner'))).mode & 0o7777).toBe(0o500);
  });
});

// As root every mode is moot: the agent's mischief and the removal run as an ordinary user.
describe.runIf(isRoot)('as a non-root user', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild(['workspace/remove-tree.ts']);
    await writeFile(
      join(modules.dir, 'remove.mjs'),
      `import { existsSync } from 'node:fs';
import { removeTree, removeTreeSync } from './workspace/remove-tree.js';
const [mode, path] = process.argv.slice(2);
try {
  if (mode === 'sync') removeTreeSync(path);
  else await removeTree(path);
  process.stdout.write(JSON.stringify({ left: existsSync(path) }));
} catch (error) {
  process.stdout.write(JSON.stringify({ left: existsSync(path), error: error.name, message: error.message, reason: error.reason }));
}
`,
    );
  });
  afterAll(() => modules?.dispose());

  async function removeAsNobody(mode: 'async' | 'sync', path: string): Promise<Record<string, unknown>> {
    const { stdout } = await run(process.execPath, [join(modules.dir, 'remove.mjs'), mode, path], {
      uid: NOBODY,
      gid: NOBODY,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  async function nobodysDeepTree(): Promise<string> {
    // In a directory of nobody's own, which removing the tree itself needs.
    await chmod(parent, 0o755);
    const home = join(parent, 'nobody');
    const tree = join(home, 'tree');
    await mkdir(tree, { recursive: true });
    for (const dir of [home, tree]) await chown(dir, NOBODY, NOBODY);
    await makeDeepTree(tree, { lock: true, uid: NOBODY });
    return tree;
  }

  it.each(['async', 'sync'] as const)(
    'removes a deep tree with a directory of mode 000 (%s)',
    async (mode) => {
      const tree = await nobodysDeepTree();
      expect(await removeAsNobody(mode, tree)).toEqual({ left: false });
    },
    30_000,
  );

  it('throws a RemoveTreeError with a short reason when the tree remains', async () => {
    const tree = await nobodysDeepTree();
    // A directory of root's at the bottom, with a file in it: nobody can empty it, and rm's message
    // names a path of some 150,000 characters.
    const plant = `const fs = require('node:fs');
      for (let level = 0; level < ${DEPTH}; level++) process.chdir('d'.repeat(255));
      fs.mkdirSync('roots'); fs.writeFileSync('roots/file', 'x');`;
    await run(process.execPath, ['-e', plant], { cwd: tree });
    const outcome = await removeAsNobody('async', tree);
    expect(outcome).toMatchObject({ left: true, error: 'RemoveTreeError' });
    expect(outcome.reason).toMatch(/^rm: cannot remove '\/tmp.*…d+\/roots\/file': Permission denied$/);
    expect(String(outcome.reason).length).toBeLessThanOrEqual(300);
    expect(new RemoveTreeError('/x', 'why').message).toBe('could not remove /x: why');
  }, 30_000);
});
