import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertUsableTempDir, TempDirError, tempDirFault } from './temp-dir.js';

// Read-only and full temp dirs need a mount (or an ordinary user): test/environment.test.ts runs them.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-temp-dir-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const FIX = 'point TMPDIR at a writable directory';

describe('assertUsableTempDir', () => {
  it('accepts a writable directory and leaves nothing in it', async () => {
    await assertUsableTempDir(dir);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a missing directory, saying how to fix it', async () => {
    const missing = join(dir, 'missing');
    await expect(assertUsableTempDir(missing)).rejects.toThrow(
      new TempDirError(`the temp directory ${missing} does not exist; create it or ${FIX}`),
    );
  });

  it('refuses a file', async () => {
    const file = join(dir, 'file');
    await writeFile(file, 'x');
    await expect(assertUsableTempDir(file)).rejects.toThrow(`the temp directory ${file} is not a directory; ${FIX}`);
  });
});

describe('tempDirFault', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: …`), { code });

  it.each([
    ['EROFS', `the temp directory /t is on a read-only file system; ${FIX}`],
    ['EACCES', `the temp directory /t is not writable by this user; ${FIX}`],
    ['ENOSPC', `the temp directory /t is full (ENOSPC); free some space or ${FIX} with room`],
    ['EDQUOT', `the temp directory /t is full (EDQUOT); free some space or ${FIX} with room`],
  ])('%s: %s', (code, message) => {
    expect(tempDirFault(errno(code), '/t')).toBe(message);
  });

  it('leaves errors that are no fault of the environment alone', () => {
    expect(tempDirFault(new TypeError('a bug'), '/t')).toBeUndefined();
    expect(tempDirFault(errno('EINVAL'), '/t')).toBeUndefined();
  });
});
