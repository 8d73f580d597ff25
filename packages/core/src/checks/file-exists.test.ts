import { describe, expect, it } from 'vitest';
import { fileExistsCheck } from './file-exists.js';
import { memfsWorkspace } from './test-support/memfs-workspace.js';

const check = (path: string) => ({ kind: 'fileExists' as const, path });

describe('fileExists', () => {
  const { context, read } = memfsWorkspace(
    { 'hello.txt': 'hi', 'src/index.ts': '' },
    {
      'link-in': 'hello.txt',
      'link-out': '/outside/secret.txt',
      'dir-out': '/outside',
      'chain-1': 'chain-2',
      'chain-2': '/outside/secret.txt',
      dangling: 'nowhere.txt',
      'dangling-out': '/outside/nowhere.txt',
    },
  );

  it.each(['hello.txt', 'src', 'src/index.ts', 'link-in', '.'])('passes for %s', async (path) => {
    await expect(fileExistsCheck.evaluate(check(path), context)).resolves.toEqual({ passed: true });
  });

  it.each(['world.txt', 'src/missing/x.ts', 'dangling', 'dangling-out'])('fails for %s', async (path) => {
    await expect(fileExistsCheck.evaluate(check(path), context)).resolves.toEqual({
      passed: false,
      message: `file does not exist: ${path}`,
    });
  });

  it.each(['link-out', 'dir-out', 'dir-out/secret.txt', 'chain-1'])(
    'refuses %s, even though something exists there',
    async (path) => {
      await expect(fileExistsCheck.evaluate(check(path), context)).resolves.toEqual({
        passed: false,
        message: `path leads outside the workspace through a symlink: ${path}`,
      });
    },
  );

  it.each([
    ['../outside/secret.txt', 'path leaves the workspace: ../outside/secret.txt'],
    ['a/../../x', 'path leaves the workspace: a/../../x'],
    ['/outside/secret.txt', 'path must be relative to the workspace: /outside/secret.txt'],
  ])('refuses %s', async (path, message) => {
    await expect(fileExistsCheck.evaluate(check(path), context)).resolves.toEqual({ passed: false, message });
  });

  it('never reads a file', () => {
    expect(read).toEqual([]);
  });
});
