import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { COPIED_MODE_BITS, type CopyFixtureOptions, classifyFixtureEntry } from '../workspace/copy-fixture.js';
import { lstatIfExists } from './fs-entries.js';

// Compares a protected path of the workspace with the fixture as copyFixture would have copied it.

export type Expected = 'file' | 'directory' | 'absent';

/** What the fixture holds at `path` as copyFixture would have copied it, with each ancestor's mode. */
export async function fixtureView(
  fixtureDir: string,
  path: string,
  options: CopyFixtureOptions,
): Promise<{ kind: Expected; ancestorModes: number[] }> {
  const parts = path.split('/');
  const ancestorModes: number[] = [];
  for (let depth = 1; depth <= parts.length; depth += 1) {
    const prefix = parts.slice(0, depth).join('/');
    const stats = await lstatIfExists(join(fixtureDir, prefix));
    const kind = stats === undefined ? 'absent' : classifyFixtureEntry(prefix, stats, options);
    if (depth === parts.length)
      return { kind: kind === 'file' || kind === 'directory' ? kind : 'absent', ancestorModes };
    if (kind !== 'directory' || stats === undefined) return { kind: 'absent', ancestorModes };
    ancestorModes.push(stats.mode & COPIED_MODE_BITS);
  }
  return { kind: 'absent', ancestorModes };
}

/**
 * Whether the workspace's ancestors of `path` are all real directories (`reachable`), one is missing
 * (`missing`: nothing can be at the path), or one is a symlink or not a directory (`blocked`).
 */
export async function workspaceView(
  workspace: string,
  path: string,
): Promise<{ kind: 'reachable' | 'missing' | 'blocked' }> {
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length; depth += 1) {
    const stats = await lstatIfExists(join(workspace, ...parts.slice(0, depth)));
    if (stats === undefined) return { kind: 'missing' };
    if (!stats.isDirectory()) return { kind: 'blocked' };
  }
  return { kind: 'reachable' };
}

/** Adds to `tampered` every path at or below `path` where the workspace differs from the fixture view. */
export async function compareEntry(
  fixtureDir: string,
  workspace: string,
  path: string,
  expected: Expected,
  options: CopyFixtureOptions,
  tampered: Set<string>,
): Promise<void> {
  const actual = await lstatIfExists(join(workspace, path));
  if (expected === 'absent' || actual === undefined) {
    if (expected !== 'absent' || actual !== undefined) tampered.add(path);
    return;
  }
  const wanted = await lstat(join(fixtureDir, path));
  if (expected === 'file') {
    if (
      !actual.isFile() ||
      !sameMode(wanted, actual) ||
      !(await sameContent(fixtureDir, workspace, path, wanted, actual))
    ) {
      tampered.add(path);
    }
    return;
  }
  if (!actual.isDirectory()) {
    tampered.add(path);
    return;
  }
  if (!sameMode(wanted, actual)) tampered.add(path);
  let actualNames: string[];
  try {
    actualNames = await readdir(join(workspace, path));
  } catch {
    tampered.add(path);
    return;
  }
  const expectedNames = new Map<string, Expected>();
  for (const name of await readdir(join(fixtureDir, path))) {
    const child = `${path}/${name}`;
    const kind = classifyFixtureEntry(child, await lstat(join(fixtureDir, child)), options);
    if (kind === 'file' || kind === 'directory') expectedNames.set(name, kind);
  }
  for (const name of [...new Set([...expectedNames.keys(), ...actualNames])].sort()) {
    await compareEntry(
      fixtureDir,
      workspace,
      `${path}/${name}`,
      expectedNames.get(name) ?? 'absent',
      options,
      tampered,
    );
  }
}

function sameMode(a: Stats, b: Stats): boolean {
  return (a.mode & COPIED_MODE_BITS) === (b.mode & COPIED_MODE_BITS);
}

const CHUNK_BYTES = 64 * 1024;

/** Byte-for-byte equality of two regular files; an unreadable workspace file counts as different. */
async function sameContent(fixtureDir: string, workspace: string, path: string, a: Stats, b: Stats): Promise<boolean> {
  if (a.size !== b.size) return false;
  // NOFOLLOW and NONBLOCK: whatever lstat saw, never follow a link nor hang on a FIFO.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const left = await open(join(fixtureDir, path), flags);
  try {
    const right = await open(join(workspace, path), flags).catch(() => undefined);
    if (right === undefined) return false;
    try {
      const leftBuffer = Buffer.alloc(CHUNK_BYTES);
      const rightBuffer = Buffer.alloc(CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await left.read(leftBuffer, 0, CHUNK_BYTES, null);
        const { bytesRead: rightRead } = await readFully(right, rightBuffer, bytesRead);
        if (rightRead !== bytesRead || !leftBuffer.subarray(0, bytesRead).equals(rightBuffer.subarray(0, bytesRead))) {
          return false;
        }
        if (bytesRead === 0) return true;
      }
    } finally {
      await right.close();
    }
  } finally {
    await left.close();
  }
}

/** Reads `length` bytes unless the file ends first, so chunks of both files line up. */
async function readFully(
  handle: Awaited<ReturnType<typeof open>>,
  buffer: Buffer,
  length: number,
): Promise<{ bytesRead: number }> {
  let total = 0;
  while (total < length) {
    const { bytesRead } = await handle.read(buffer, total, length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return { bytesRead: total };
}
