import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

// Reads of regular files the walk saw, all synchronous (see tree-walk.ts on why). Every open is
// O_NOFOLLOW and O_NONBLOCK, and what it opened must be the regular file `lstat` saw (same device and
// inode): a link, FIFO or device put in its place is never read through nor waited on.

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK_BYTES = 256 * 1024;
// One buffer for every read: reads are synchronous, so never two at once in a thread.
const chunk = Buffer.allocUnsafe(CHUNK_BYTES);

/** The SHA-256 (base64) of a file's content, or undefined when it cannot be read as the file `seen` was. */
export function hashFile(path: Buffer | string, seen: Stats): string | undefined {
  const fd = openSeen(path, seen);
  if (fd === undefined) return undefined;
  try {
    const hash = createHash('sha256');
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return hash.digest('base64');
      hash.update(chunk.subarray(0, bytesRead));
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The SHA-256 (base64) of bytes held in memory. */
export function hashBytes(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64');
}

/**
 * A file's content when it is at most `maxBytes` long; `tooLarge` when it is longer (only its first
 * `maxBytes + 1` bytes are read to tell); undefined when it cannot be read as the file `seen` was.
 */
export function readBounded(path: Buffer | string, seen: Stats, maxBytes: number): Buffer | 'tooLarge' | undefined {
  if (seen.size > maxBytes) return 'tooLarge';
  const fd = openSeen(path, seen);
  if (fd === undefined) return undefined;
  try {
    const out = Buffer.allocUnsafe(Math.min(maxBytes + 1, seen.size + 1));
    let total = 0;
    while (total < out.length) {
      const bytesRead = readSync(fd, out, total, out.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    // The file grew since its lstat: past the limit, it is too large after all.
    if (total > maxBytes) return 'tooLarge';
    return out.subarray(0, total);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** An open descriptor of the regular file `seen` describes, or undefined. */
function openSeen(path: Buffer | string, seen: Stats): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const opened = fstatSync(fd);
    if (opened.isFile() && opened.ino === seen.ino && opened.dev === seen.dev) return fd;
  } catch {
    // Closed below.
  }
  closeSync(fd);
  return undefined;
}

/**
 * What tells that a file was not written since it was seen: its device, inode, size, mtime and ctime.
 * No unprivileged process can write a file without moving its ctime, nor set a ctime back.
 */
export function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}
