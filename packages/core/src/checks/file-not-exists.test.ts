import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { fileNotExistsCheck } from './file-not-exists.js';
import type { CheckContext, CheckFs } from './types.js';

/** A memfs workspace at /ws beside /outside/secret.txt; `read` records every readFile. */
function workspace(files: Record<string, string>, links: Record<string, string> = {}) {
  const vol = Volume.fromJSON({ '/outside/secret.txt': 'SECRET' });
  vol.mkdirSync('/ws', { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    vol.mkdirSync(`/ws/${file}/..`, { recursive: true });
    vol.writeFileSync(`/ws/${file}`, content);
  }
  for (const [link, target] of Object.entries(links)) vol.symlinkSync(target, `/ws/${link}`);
  const memfs = vol.promises as unknown as CheckFs;
  const read: string[] = [];
  const fs: CheckFs = {
    lstat: (path) => memfs.lstat(path),
    stat: (path) => memfs.stat(path),
    realpath: (path) => memfs.realpath(path),
    readFile: (path) => {
      read.push(path);
      return memfs.readFile(path);
    },
  };
  const context: CheckContext = { workspace: '/ws', fs, output: '', runCommand: () => Promise.reject(new Error()) };
  return { context, read };
}

const check = (path: string) => ({ kind: 'fileNotExists' as const, path });

describe('fileNotExists', () => {
  const { context, read } = workspace(
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
