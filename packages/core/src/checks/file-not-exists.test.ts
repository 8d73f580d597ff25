import { describe, expect, it } from 'vitest';
import { fileNotExistsCheck } from './file-not-exists.js';
import { memfsWorkspace } from './test-support/memfs-workspace.js';

const check = (path: string) => ({ kind: 'fileNotExists' as const, path });

describe('fileNotExists', () => {
  const { context, read } = memfsWorkspace(
    { '.env.local': 'TOKEN=1', 'tmp/junk.txt': '' },
    {
      'link-in': '.env.local',
      'link-out': '/outside/secret.txt',
      'dir-out': '/outside',
      dangling: 'nowhere.txt',
      'dangling-out': '/outside/nowhere.txt',
      loop: 'loop',
    },
  );

  it.each(['.env', 'tmp/other.txt', 'missing/deeper', '.env.local/child', 'dangling/child'])(
    'passes when nothing is at %s',
    async (path) => {
      await expect(fileNotExistsCheck.evaluate(check(path), context)).resolves.toEqual({ passed: true });
    },
  );

  it.each(['.env.local', 'tmp', 'link-in', 'dangling', 'dangling-out', 'loop'])(
    'fails when something, even a broken link, is at %s',
    async (path) => {
      await expect(fileNotExistsCheck.evaluate(check(path), context)).resolves.toEqual({
        passed: false,
        message: `file exists but should not: ${path}`,
      });
    },
  );

  it.each([
    ['../outside/nowhere.txt', 'path leaves the workspace: ../outside/nowhere.txt'],
    ['/nowhere.txt', 'path must be relative to the workspace: /nowhere.txt'],
    ['link-out', 'path leads outside the workspace through a symlink: link-out'],
    ['dir-out/nowhere.txt', 'path leads outside the workspace through a symlink: dir-out/nowhere.txt'],
  ])('fails for %s, which leaves the workspace', async (path, message) => {
    await expect(fileNotExistsCheck.evaluate(check(path), context)).resolves.toEqual({ passed: false, message });
  });

  it('never reads a file', () => {
    expect(read).toEqual([]);
  });
});
