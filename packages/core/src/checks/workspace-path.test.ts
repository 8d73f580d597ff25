import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as realFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Volume } from 'memfs';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckFs } from './types.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** A memfs workspace at /ws beside an outside secret, with symlinks as an untrusted agent might leave them. */
function agentWorkspace(): CheckFs {
  const vol = Volume.fromJSON({
    '/ws/hello.txt': 'hello',
    '/ws/sub/nested.txt': 'nested',
    '/outside/secret.txt': 'SECRET',
    '/ws-evil/secret.txt': 'SECRET',
  });
  const links: Record<string, string> = {
    'link-out': '/outside/secret.txt',
    'dir-out': '/outside',
    'chain-1': 'chain-2',
    'chain-2': '/outside/secret.txt',
    'sibling-out': '../ws-evil',
    'link-in': 'hello.txt',
    'sub/up': '../hello.txt',
    'dir-in': 'sub',
    dangling: 'missing.txt',
    'dangling-out': '/outside/missing.txt',
    'loop-1': 'loop-2',
    'loop-2': 'loop-1',
    'via-outside': '/outside/back-in',
  };
  for (const [link, target] of Object.entries(links)) vol.symlinkSync(target, `/ws/${link}`);
  vol.symlinkSync('/ws/hello.txt', '/outside/back-in');
  vol.symlinkSync('/ws', '/ws-link');
  return vol.promises as unknown as CheckFs;
}

const outside = (path: string) => ({
  status: 'refused',
  message: `path leads outside the workspace through a symlink: ${path}`,
});

describe('resolveWorkspacePath', () => {
  const fs = agentWorkspace();
  const resolve = (path: string, workspace = '/ws') => resolveWorkspacePath(fs, workspace, path);

  it.each([
    ['hello.txt', '/ws/hello.txt'],
    ['./sub/../hello.txt', '/ws/hello.txt'],
    ['sub', '/ws/sub'],
    ['.', '/ws'],
    ['link-in', '/ws/hello.txt'],
    ['sub/up', '/ws/hello.txt'],
    ['dir-in/nested.txt', '/ws/sub/nested.txt'],
    // Leaving and coming back in is fine: only the real path is ever used, and it is inside.
    ['via-outside', '/ws/hello.txt'],
  ])('finds %s at its real path %s', async (path, realPath) => {
    await expect(resolve(path)).resolves.toEqual({ status: 'found', realPath });
  });

  it('compares against the real workspace path when the workspace itself is reached through a symlink', async () => {
    await expect(resolve('hello.txt', '/ws-link')).resolves.toEqual({ status: 'found', realPath: '/ws/hello.txt' });
    await expect(resolve('link-out', '/ws-link')).resolves.toEqual(outside('link-out'));
  });

  it.each(['../x', '..', 'a/../../x', 'sub/../../outside/secret.txt'])(
    'refuses %s, which leaves the workspace',
    async (path) => {
      await expect(resolve(path)).resolves.toEqual({
        status: 'refused',
        message: `path leaves the workspace: ${path}`,
      });
    },
  );

  it('refuses absolute paths, even ones inside the workspace', async () => {
    for (const path of ['/outside/secret.txt', '/ws/hello.txt']) {
      await expect(resolve(path)).resolves.toEqual({
        status: 'refused',
        message: `path must be relative to the workspace: ${path}`,
      });
    }
  });

  it('refuses a path with a NUL character', async () => {
    await expect(resolve('a\0b')).resolves.toMatchObject({
      status: 'refused',
      message: expect.stringContaining('NUL'),
    });
  });

  it.each([
    'link-out',
    'dir-out',
    'dir-out/secret.txt',
    'chain-1',
    // `/ws-evil` shares the prefix `/ws` but is not inside it.
    'sibling-out/secret.txt',
    // Missing below an outside directory is still outside.
    'dir-out/missing.txt',
    'dir-out/missing/deeper.txt',
  ])('refuses %s, which leads outside through a symlink', async (path) => {
    await expect(resolve(path)).resolves.toEqual(outside(path));
  });

  it.each(['missing.txt', 'missing/deeper.txt', 'hello.txt/child', 'dangling/child'])(
    'reports %s as missing',
    async (path) => {
      await expect(resolve(path)).resolves.toEqual({ status: 'missing' });
    },
  );

  it.each(['dangling', 'dangling-out', 'loop-1'])('reports %s as a dangling link, never as found', async (path) => {
    await expect(resolve(path)).resolves.toEqual({ status: 'dangling' });
  });

  it('lets filesystem faults other than "not there" propagate', async () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const broken: CheckFs = { ...fs, realpath: async (path) => (path === '/ws' ? '/ws' : Promise.reject(denied)) };
    await expect(resolveWorkspacePath(broken, '/ws', 'hello.txt')).rejects.toThrow('EACCES');
  });
});

describe('resolveWorkspacePath on the real filesystem', () => {
  // memfs mirrors the kernel's realpath errors; this pins the few that matter on a real disk too.
  const base = mkdtempSync(join(tmpdir(), 'gz-bench-workspace-path-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const ws = join(base, 'ws');
  mkdirSync(ws);
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), 'SECRET');
  writeFileSync(join(ws, 'hello.txt'), 'hello');
  symlinkSync(join(base, 'outside'), join(ws, 'dir-out'));
  symlinkSync('nowhere', join(ws, 'dangling'));
  const resolve = (path: string) => resolveWorkspacePath(realFs, ws, path);

  it('finds, refuses and misses as on memfs', async () => {
    await expect(resolve('hello.txt')).resolves.toMatchObject({ status: 'found' });
    await expect(resolve('dir-out/secret.txt')).resolves.toEqual(outside('dir-out/secret.txt'));
    await expect(resolve('dir-out/missing/x')).resolves.toEqual(outside('dir-out/missing/x'));
    await expect(resolve('hello.txt/x')).resolves.toEqual({ status: 'missing' });
    await expect(resolve('dangling')).resolves.toEqual({ status: 'dangling' });
  });
});
