import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

// Files under /proc are generated on read and are small (a stat line, an environment block): one
// synchronous open, read and close each costs microseconds, where an asynchronous read costs several
// round trips through libuv's thread pool. For scans of every process of the machine that matters.

let buffer = Buffer.allocUnsafe(16 * 1024);

/** The numeric entries of /proc (the machine's processes, as this process's /proc shows them); [] without /proc. */
export function listPids(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code >= 48 && code <= 57) pids.push(Number(entry));
  }
  return pids;
}

/**
 * The whole content of a file under /proc, read synchronously (the returned Buffer is a copy), or
 * undefined when it cannot be read: the process is gone, or its file is not ours to read.
 */
export function readProcFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return Buffer.from(buffer.subarray(0, length));
      length += read;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
