import { describe, expect, it } from 'vitest';
import { fileContainsCheck, MAX_FILE_CONTAINS_BYTES } from './file-contains.js';
import { memfsWorkspace } from './test-support/memfs-workspace.js';
import type { CheckFs } from './types.js';

/** The outside secret also holds "hi", the text most cases look for: a check that wrongly read it would pass. */
const workspace = (files: Record<string, string | Buffer>, links: Record<string, string> = {}) =>
  memfsWorkspace(files, links, { outside: 'SECRET hi' });

const check = (path: string, text: string, flags?: 'i') => ({
  kind: 'fileContains' as const,
  path,
  text,
  ...(flags && { flags }),
});

describe('fileContains', () => {
  it('passes when the file contains the text', async () => {
    const { context, opened } = workspace({ 'hello.txt': 'why, hi there' });
    await expect(fileContainsCheck.evaluate(check('hello.txt', 'hi'), context)).resolves.toEqual({ passed: true });
    expect(opened).toEqual(['stat /ws/hello.txt', 'read /ws/hello.txt']);
  });

  it('fails when the file lacks the text, quoting the text', async () => {
    const { context } = workspace({ 'hello.txt': 'hello' });
    await expect(fileContainsCheck.evaluate(check('hello.txt', 'hi'), context)).resolves.toEqual({
      passed: false,
      message: 'file does not contain "hi": hello.txt',
    });
  });

  it('matches case-sensitively unless flags is "i"', async () => {
    const { context } = workspace({ 'README.md': '## Install\n' });
    await expect(fileContainsCheck.evaluate(check('README.md', 'install'), context)).resolves.toMatchObject({
      passed: false,
    });
    await expect(fileContainsCheck.evaluate(check('README.md', 'INSTALL', 'i'), context)).resolves.toEqual({
      passed: true,
    });
  });

  it('truncates a very long text in the message', async () => {
    const { context } = workspace({ 'a.txt': 'short' });
    const longText = 'x'.repeat(200);
    const outcome = await fileContainsCheck.evaluate(check('a.txt', longText), context);
    expect(outcome.message).toBe(`file does not contain "${'x'.repeat(79)}…": a.txt`);
  });

  it('tolerates invalid UTF-8 around the text', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('needle'), Buffer.from([0x80])]);
    const { context } = workspace({ 'blob.bin': bytes });
    await expect(fileContainsCheck.evaluate(check('blob.bin', 'needle'), context)).resolves.toEqual({ passed: true });
  });

  it('fails for a missing file and for a dangling symlink', async () => {
    const { context } = workspace({}, { dangling: 'nowhere.txt' });
    for (const path of ['x', 'dangling']) {
      await expect(fileContainsCheck.evaluate(check(path, 'hi'), context)).resolves.toEqual({
        passed: false,
        message: `file does not exist: ${path}`,
      });
    }
  });

  it('fails for a directory without reading it', async () => {
    const { context, opened } = workspace({ 'x/inner.txt': 'hi' });
    await expect(fileContainsCheck.evaluate(check('x', 'hi'), context)).resolves.toEqual({
      passed: false,
      message: 'not a file: x',
    });
    expect(opened).toEqual(['stat /ws/x']);
  });

  it('follows a symlink that stays inside and reads its real path', async () => {
    const { context, opened } = workspace({ 'src/real.txt': 'hi' }, { alias: 'src/real.txt' });
    await expect(fileContainsCheck.evaluate(check('alias', 'hi'), context)).resolves.toEqual({ passed: true });
    expect(opened).toContain('read /ws/src/real.txt');
  });

  it.each([
    ['link-out', { 'link-out': '/outside/secret.txt' }],
    ['dir-out/secret.txt', { 'dir-out': '/outside' }],
    ['chain-1', { 'chain-1': 'chain-2', 'chain-2': '/outside/secret.txt' }],
  ])('refuses %s, which leads outside, without touching the outside file', async (path, links) => {
    const { context, opened } = workspace({}, links);
    await expect(fileContainsCheck.evaluate(check(path, 'SECRET'), context)).resolves.toEqual({
      passed: false,
      message: `path leads outside the workspace through a symlink: ${path}`,
    });
    expect(opened).toEqual([]);
  });

  it('refuses paths that leave the workspace by name', async () => {
    const { context, opened } = workspace({});
    for (const [path, message] of [
      ['../outside/secret.txt', 'path leaves the workspace: ../outside/secret.txt'],
      ['/outside/secret.txt', 'path must be relative to the workspace: /outside/secret.txt'],
    ] as const) {
      await expect(fileContainsCheck.evaluate(check(path, 'SECRET'), context)).resolves.toEqual({
        passed: false,
        message,
      });
    }
    expect(opened).toEqual([]);
  });

  it('refuses a file over the size cap without reading it', async () => {
    const { context, fs, opened } = workspace({ 'huge.log': 'hi' });
    // memfs cannot cheaply hold 64 MiB, so the stat reports a size the file does not really have.
    const hugeFs: CheckFs = {
      ...fs,
      stat: async (path) => Object.assign(await fs.stat(path), { size: MAX_FILE_CONTAINS_BYTES + 1 }),
    };
    await expect(fileContainsCheck.evaluate(check('huge.log', 'hi'), { ...context, fs: hugeFs })).resolves.toEqual({
      passed: false,
      message: 'file is larger than the 64 MiB limit of fileContains: huge.log',
    });
    expect(opened.filter((entry) => entry.startsWith('read'))).toEqual([]);
  });

  it('reads a file of exactly the size cap', async () => {
    const { context, fs } = workspace({ 'big.log': 'hi' });
    const capFs: CheckFs = {
      ...fs,
      stat: async (path) => Object.assign(await fs.stat(path), { size: BigInt(MAX_FILE_CONTAINS_BYTES) }),
    };
    await expect(fileContainsCheck.evaluate(check('big.log', 'hi'), { ...context, fs: capFs })).resolves.toEqual({
      passed: true,
    });
  });
});
