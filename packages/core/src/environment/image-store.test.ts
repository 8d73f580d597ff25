import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownStartTime } from '../workspace/owned-dirs.js';
import { removeTree } from '../workspace/remove-tree.js';
import { storedImage } from './image-store.js';
import { nodeProblem } from './node-in-image.js';
import { buildHostImage } from './test-support/host-image.js';

// Images built from the host's own files into docker-archives, unpacked into a store of their own.

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-store-')));
  await buildHostImage(
    { workingDir: '/app', files: { '/app/seed.txt': 'seed\n' } },
    join(root, 'good'),
    join(root, 'good.tar'),
  );
  await buildHostImage({ withoutNodeLibraries: true }, join(root, 'bare'), join(root, 'bare.tar'));
});
afterAll(() => removeTree(root));

describe('storedImage', () => {
  it('unpacks an image once per digest: a second store finds it there', async () => {
    const store = join(root, 'store');
    const image = await storedImage(join(root, 'good.tar'), store);
    expect(image.unpacked).toBe(true);
    expect(image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(image.config.workingDir).toBe('/app');
    expect(existsSync(join(image.rootfs, 'app', 'seed.txt'))).toBe(true);
    // A copy of the same bytes elsewhere is the same image.
    await writeFile(
      join(root, 'copy.tar'),
      await import('node:fs/promises').then((fs) => fs.readFile(join(root, 'good.tar'))),
    );
    const again = await storedImage(join(root, 'copy.tar'), store);
    expect(again.unpacked).toBe(false);
    expect(again.rootfs).toBe(image.rootfs);
  });

  it("removes what a killed run's unpacking left, and keeps a live one's", async () => {
    const store = join(root, 'store-stale');
    await mkdir(store, { recursive: true });
    // No process has pid 4194305 (above the largest pid_max, 2^22); this process is alive.
    const dead = join(store, 'sha256-aaaa.unpacking-4194305-12-0badc0de');
    const live = join(store, `sha256-bbbb.unpacking-${process.pid}-${await ownStartTime()}-0badc0de`);
    await mkdir(join(dead, 'rootfs'), { recursive: true });
    await mkdir(live);
    await storedImage(join(root, 'good.tar'), store);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('names the archive that is missing or is no image', async () => {
    await writeFile(join(root, 'broken.tar'), 'not a tar at all');
    await expect(storedImage(join(root, 'missing.tar'), join(root, 'store'))).rejects.toThrow(/missing\.tar/);
    await expect(storedImage(join(root, 'broken.tar'), join(root, 'store'))).rejects.toThrow(/broken\.tar/);
  });
});

describe('nodeProblem', () => {
  it("accepts an image with node's libraries and says what one without them lacks", async () => {
    const good = await storedImage(join(root, 'good.tar'), join(root, 'store'));
    expect(await nodeProblem(good.rootfs)).toBeUndefined();
    const bare = await storedImage(join(root, 'bare.tar'), join(root, 'store'));
    expect(await nodeProblem(bare.rootfs)).toContain('libstdc++.so.6');
  });
});
