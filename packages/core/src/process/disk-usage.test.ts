import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { link, mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTree } from '../workspace/remove-tree.js';
import { DiskUsageScan, diskUsage, watchDiskUsage } from './disk-usage.js';
import { agent } from './test-support/processes.js';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-disk-')));
});

afterEach(async () => {
  await removeTree(dir);
});

async function writeBytes(path: string, bytes: number): Promise<void> {
  await writeFile(path, Buffer.alloc(bytes, 0x61));
}

/** A tree of 3 files (10 + 20 + 30 bytes) in nested directories under `root`. */
async function smallTree(root: string): Promise<void> {
  await mkdir(join(root, 'a', 'b'), { recursive: true });
  await writeBytes(join(root, 'top.txt'), 10);
  await writeBytes(join(root, 'a', 'mid.txt'), 20);
  await writeBytes(join(root, 'a', 'b', 'deep.txt'), 30);
}

describe('diskUsage', () => {
  it('adds up the sizes of regular files in nested directories', async () => {
    await smallTree(dir);
    expect(await diskUsage(dir)).toEqual({ bytes: 60, entries: 5, complete: true });
  });

  it.runIf(process.platform === 'linux')(
    'counts files nested past PATH_MAX, and closes the directories it opened to reach them',
    async () => {
      await promisify(execFile)('/bin/sh', ['-c', agent('deep-tree', '600', 'open', String(3 * 1024 * 1024))], {
        cwd: dir,
      });
      await writeBytes(join(dir, 'top.txt'), 10);
      const openBefore = readdirSync('/proc/self/fd').length;
      expect(await diskUsage(dir)).toEqual({ bytes: 3 * 1024 * 1024 + 10, entries: 602, complete: true });
      expect(readdirSync('/proc/self/fd').length).toBe(openBefore);
      // Stopped halfway down, as a watch is when its command ends.
      const scan = new DiskUsageScan(dir);
      await scan.advance(300);
      await scan.close();
      expect(readdirSync('/proc/self/fd').length).toBe(openBefore);
    },
    30_000,
  );

  it('does not follow symlinks to files or directories outside the tree', async () => {
    const tree = join(dir, 'tree');
    const outside = join(dir, 'outside');
    await mkdir(tree);
    await mkdir(outside);
    await writeBytes(join(outside, 'big.bin'), 100_000);
    await writeBytes(join(tree, 'own.txt'), 7);
    await symlink(join(outside, 'big.bin'), join(tree, 'file-link'));
    await symlink(outside, join(tree, 'dir-link'));
    await symlink('/', join(tree, 'root-link'));
    expect(await diskUsage(tree)).toMatchObject({ bytes: 7, complete: true });
  });

  it('counts a hard-linked file once', async () => {
    await writeBytes(join(dir, 'original.bin'), 1000);
    await link(join(dir, 'original.bin'), join(dir, 'second-name.bin'));
    await writeBytes(join(dir, 'other.bin'), 1);
    expect((await diskUsage(dir)).bytes).toBe(1001);
  });

  it('measures a root that is a file, and reports 0 for a missing root', async () => {
    await writeBytes(join(dir, 'single.bin'), 42);
    expect(await diskUsage(join(dir, 'single.bin'))).toEqual({ bytes: 42, entries: 1, complete: true });
    expect(await diskUsage(join(dir, 'missing'))).toEqual({ bytes: 0, entries: 0, complete: true });
  });

  it('stops early once over stopAboveBytes, with a lower bound', async () => {
    for (let index = 0; index < 200; index += 1) await writeBytes(join(dir, `f${index}`), 100);
    const usage = await diskUsage(dir, { stopAboveBytes: 1000 });
    expect(usage.complete).toBe(false);
    expect(usage.bytes).toBeGreaterThan(1000);
    expect(usage.bytes).toBeLessThan(20_000);
  });

  it('measures 2000 files in a few directories quickly', async () => {
    for (let group = 0; group < 4; group += 1) {
      const sub = join(dir, `d${group}`);
      mkdirSync(sub);
      // Sync writes: creating the tree is the slow part, and the thread pool only adds overhead to it.
      for (let index = 0; index < 500; index += 1) writeFileSync(join(sub, `f${index}`), 'abc');
    }
    const started = performance.now();
    const usage = await diskUsage(dir);
    expect(usage).toEqual({ bytes: 6000, entries: 2004, complete: true });
    // Loose on purpose: shared CI machines are slow; a walk that blocked or looped would take far longer.
    expect(performance.now() - started).toBeLessThan(3000);
  }, 30_000);
});

describe('DiskUsageScan', () => {
  it('does bounded work per step and resumes to the same total', async () => {
    await smallTree(dir);
    for (let index = 0; index < 10; index += 1) await writeBytes(join(dir, 'a', `more${index}`), 1);
    const scan = new DiskUsageScan(dir);
    let steps = 0;
    while (!scan.done) {
      const before = scan.entries;
      await scan.advance(2);
      // One directory listing may be read whole; files are measured within the budget.
      expect(scan.entries - before).toBeLessThanOrEqual(2 + 3);
      steps += 1;
    }
    expect(steps).toBeGreaterThan(3);
    expect(scan.bytes).toBe(70);
    expect(scan.entries).toBe(15);
  });
});

describe('watchDiskUsage', () => {
  it('reports once when the tree grows past the limit, then stops polling', async () => {
    const seen: number[] = [];
    const stop = watchDiskUsage({ path: dir, limit: 5000, intervalMs: 10 }, (bytes) => seen.push(bytes));
    await delay(50);
    expect(seen).toEqual([]);
    await writeBytes(join(dir, 'grown.bin'), 6000);
    await writeBytes(join(dir, 'more.bin'), 6000);
    const deadline = Date.now() + 2000;
    while (seen.length === 0 && Date.now() < deadline) await delay(10);
    await delay(50);
    await stop();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(5000);
  });

  it('catches a tree that is over the limit from the start without waiting an interval', async () => {
    await writeBytes(join(dir, 'big.bin'), 2000);
    const seen: number[] = [];
    const stop = watchDiskUsage({ path: dir, limit: 1000, intervalMs: 60_000 }, (bytes) => seen.push(bytes));
    await delay(100);
    await stop();
    expect(seen).toEqual([2000]);
  });

  it('stays quiet under the limit and stops promptly', async () => {
    await smallTree(dir);
    const seen: number[] = [];
    const stop = watchDiskUsage({ path: dir, limit: 1000, intervalMs: 5 }, (bytes) => seen.push(bytes));
    await delay(60);
    const started = Date.now();
    await stop();
    expect(Date.now() - started).toBeLessThan(500);
    expect(seen).toEqual([]);
  });
});
