import { createWriteStream } from 'node:fs';
import { chmod, link, lstat, mkdir, readdir, readlink, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readTar, type TarEntry } from './tar-entries.js';

// An image's layers applied in order to one directory make its root file system. An entry's path
// is resolved inside that root, links followed as the image would see them (an absolute link names a
// path of the image, never of the host), so no entry, however crafted, writes outside the root.

/** Raised for a layer that cannot be applied: an entry that would leave the root, a broken archive. */
export class LayerError extends Error {
  override name = 'LayerError';
}

const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';
const MAX_LINK_HOPS = 40;

/** What applying a layer did that a user may want to know. */
export interface AppliedLayer {
  entries: number;
  /** Device nodes, FIFOs and the like, which an unprivileged unpacker cannot make. */
  skipped: string[];
}

/** Applies the tar layer `stream` (uncompressed) to the root file system at `root`. */
export async function applyLayer(root: string, stream: Readable): Promise<AppliedLayer> {
  const made = new Set<string>();
  const skipped: string[] = [];
  let entries = 0;
  await readTar(stream, async (entry, data) => {
    entries += 1;
    const parts = entry.path.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.length === 0) return;
    if (parts.includes('..')) throw new LayerError(`the entry ${JSON.stringify(entry.path)} leaves the image's root`);
    const name = parts[parts.length - 1] as string;
    const parent = await resolveInRoot(root, parts.slice(0, -1), true);
    if (name === OPAQUE) {
      // The directory hides what lower layers put in it; this layer's own entries stay.
      for (const child of await readdir(parent)) {
        if (!made.has(join(parent, child))) await rm(join(parent, child), { recursive: true, force: true });
      }
      return;
    }
    if (name.startsWith(WHITEOUT)) {
      await rm(join(parent, name.slice(WHITEOUT.length)), { recursive: true, force: true });
      return;
    }
    const target = join(parent, name);
    made.add(target);
    await place(root, target, entry, data, skipped);
  });
  return { entries, skipped };
}

async function place(
  root: string,
  target: string,
  entry: TarEntry,
  data: AsyncIterable<Buffer>,
  skipped: string[],
): Promise<void> {
  const existing = await lstat(target).catch(() => undefined);
  if (entry.type === 'directory') {
    if (existing?.isDirectory()) {
      await chmod(target, entry.mode | 0o700);
      return;
    }
    if (existing) await rm(target, { recursive: true, force: true });
    // Owner access kept, so later entries can be written inside by an unprivileged unpacker.
    await mkdir(target, { mode: entry.mode | 0o700 });
    return;
  }
  if (entry.type === 'other') {
    skipped.push(entry.path);
    return;
  }
  if (existing) await rm(target, { recursive: true, force: true });
  if (entry.type === 'symlink') {
    await symlink(entry.linkTarget, target);
  } else if (entry.type === 'hardlink') {
    const parts = entry.linkTarget.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) throw new LayerError(`the link ${JSON.stringify(entry.path)} leaves the image's root`);
    await link(await resolveInRoot(root, parts, false), target);
  } else {
    await pipeline(data, createWriteStream(target, { mode: entry.mode, flags: 'wx' }));
    await chmod(target, entry.mode);
  }
}

/**
 * The host path of the image path `parts` inside `root`, symlinks followed as the image resolves them
 * (absolute targets from the image's root, `..` stopping at it). With `makeDirs`, missing directories
 * on the way are made, as tar does.
 */
async function resolveInRoot(
  root: string,
  parts: readonly string[],
  makeDirs: boolean,
  followLast = false,
): Promise<string> {
  const resolved: string[] = [];
  const queue = [...parts];
  let hops = 0;
  while (queue.length > 0) {
    const part = queue.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      resolved.pop();
      continue;
    }
    const host = join(root, ...resolved, part);
    const stats = await lstat(host).catch(() => undefined);
    if (stats?.isSymbolicLink() && (queue.length > 0 || makeDirs || followLast)) {
      hops += 1;
      if (hops > MAX_LINK_HOPS) throw new LayerError(`too many links resolving ${parts.join('/')}`);
      const target = await readlink(host);
      if (target.startsWith('/')) resolved.length = 0;
      queue.unshift(...target.split('/'));
      continue;
    }
    if (stats === undefined && makeDirs) await mkdir(host, { mode: 0o755 });
    else if (stats !== undefined && !stats.isDirectory() && (queue.length > 0 || makeDirs)) {
      throw new LayerError(`${parts.join('/')}: ${resolved.concat(part).join('/')} is not a directory`);
    }
    resolved.push(part);
  }
  return join(root, ...resolved);
}

/**
 * Where the image's `path` (absolute, as the image names it) is in `root` on the host, links followed
 * inside the image, the last one too; it need not exist.
 */
export function pathInImage(root: string, path: string): Promise<string> {
  return resolveInRoot(root, path.split('/'), false, true);
}
