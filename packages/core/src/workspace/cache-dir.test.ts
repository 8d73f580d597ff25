import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunCacheDir } from './cache-dir.js';
import { ownStartTime, parseOwnedDirName } from './owned-dirs.js';
import { cleanStaleAreas } from './stale-areas.js';

let parent: string;
beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-cache-test-')));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe('createRunCacheDir', () => {
  it('is named after this process, spared by cleanStaleAreas while it runs, and removed by remove()', async () => {
    const cache = await createRunCacheDir(parent);
    expect(dirname(cache.path)).toBe(parent);
    expect(parseOwnedDirName(basename(cache.path))).toEqual({
      kind: 'cache',
      pid: process.pid,
      startTime: await ownStartTime(),
    });
    await writeFile(join(cache.path, 'cached'), 'x');
    expect((await cleanStaleAreas(parent)).removed).toEqual([]);
    await cache.remove();
    expect(existsSync(cache.path)).toBe(false);
    await expect(cache.remove()).resolves.toBeUndefined();
  });
});
