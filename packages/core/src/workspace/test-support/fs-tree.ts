import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * Every entry below `dir` (never following symlinks) as `path → description`: type, permission bits,
 * and a content hash or link target. Two equal snapshots mean two byte-identical trees.
 */
export async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  async function walk(relative: string): Promise<void> {
    const names = (await readdir(join(dir, relative))).sort();
    for (const name of names) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const absolute = join(dir, path);
      const stats = await lstat(absolute);
      const mode = (stats.mode & 0o7777).toString(8);
      if (stats.isSymbolicLink()) snapshot[path] = `link -> ${await readlink(absolute)}`;
      else if (stats.isFile()) {
        snapshot[path] = `file ${mode} ${createHash('sha256')
          .update(await readFile(absolute))
          .digest('hex')}`;
      } else if (stats.isDirectory()) {
        snapshot[path] = `dir ${mode}`;
        await walk(path);
      } else snapshot[path] = `special ${mode}`;
    }
  }
  await walk('');
  return snapshot;
}

/** The paths of every entry below `dir`, sorted as `snapshotTree` walks them. */
export async function treePaths(dir: string): Promise<string[]> {
  return Object.keys(await snapshotTree(dir));
}

/** Writes files (creating their directories) below `root`; a value is the content, or content and mode. */
export async function writeTree(root: string, files: Record<string, string | [string, number]>): Promise<void> {
  for (const [path, value] of Object.entries(files)) {
    const [content, mode] = typeof value === 'string' ? [value, 0o644] : value;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content, { mode });
  }
}

/** Makes a FIFO at `path` with mkfifo(1): Node has no API for it. */
export function makeFifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** Binds a unix socket at `path`; close the server when done (the socket file stays). */
export async function makeSocket(path: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}
