import { open, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathInImage } from '../images/index.js';

// The agent, gz-bench's own shell pieces and a check's `node` run inside the image, on the host's node
// mounted read-only (nothing is installed into the image). That node is a dynamically linked glibc
// program: it needs the image to have its program interpreter (the dynamic loader), a glibc at least
// as new as the one it was built against, and libstdc++. An image without them (Alpine's musl, an old
// distribution, a scratch image) is refused before anything runs, with what it lacks.

/** The oldest glibc Node.js's own Linux builds run on (Node 20 and 22). */
const MIN_GLIBC: readonly [number, number] = [2, 28];

/** The directories an image's libraries are found in, as glibc's defaults and Debian's multiarch have them. */
const LIBRARY_DIRS = [
  '/lib/x86_64-linux-gnu',
  '/usr/lib/x86_64-linux-gnu',
  '/lib/aarch64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/lib64',
  '/usr/lib64',
  '/lib',
  '/usr/lib',
];

/** Why the host's node cannot run in the image at `rootfs`, or undefined when it can. */
export async function nodeProblem(rootfs: string, node: string = process.execPath): Promise<string | undefined> {
  if (!(await isFileIn(rootfs, '/bin/sh'))) return 'the image has no /bin/sh, which runs every command of a case';
  const interpreter = await programInterpreter(await realpath(node));
  if (interpreter === undefined) return undefined;
  if (!(await isFileIn(rootfs, interpreter))) {
    return `the image has no ${interpreter}, the dynamic loader of the host's node (a musl or scratch image?); use a glibc image (Debian, Ubuntu, python:*-slim…)`;
  }
  const libc = await libraryIn(rootfs, 'libc.so.6');
  const version = libc === undefined ? undefined : await glibcVersion(libc);
  if (version !== undefined && compare(version, MIN_GLIBC) < 0) {
    return `the image's glibc is ${version.join('.')}, older than the ${MIN_GLIBC.join('.')} the host's node needs`;
  }
  if ((await libraryIn(rootfs, 'libstdc++.so.6')) === undefined) {
    return "the image has no libstdc++.so.6, which the host's node needs (Debian: the libstdc++6 package)";
  }
  return undefined;
}

/** The ELF program interpreter (PT_INTERP) of a 64-bit executable, undefined for a static one. */
async function programInterpreter(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(64);
    await handle.read(header, 0, 64, 0);
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2) return undefined;
    const phoff = Number(header.readBigUInt64LE(32));
    const phentsize = header.readUInt16LE(54);
    const phnum = header.readUInt16LE(56);
    const table = Buffer.alloc(phentsize * phnum);
    await handle.read(table, 0, table.length, phoff);
    for (let index = 0; index < phnum; index += 1) {
      const entry = index * phentsize;
      if (table.readUInt32LE(entry) !== 3) continue;
      const offset = Number(table.readBigUInt64LE(entry + 8));
      const size = Number(table.readBigUInt64LE(entry + 32));
      const path = Buffer.alloc(size);
      await handle.read(path, 0, size, offset);
      return path.toString('latin1').replace(/\0.*$/s, '');
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

async function libraryIn(rootfs: string, name: string): Promise<string | undefined> {
  for (const dir of LIBRARY_DIRS) {
    const host = await pathInImage(rootfs, join(dir, name)).catch(() => undefined);
    if (host !== undefined && (await isFile(host))) return host;
  }
  return undefined;
}

/** The version glibc's libc.so.6 announces ("release version 2.36"), if it says. */
async function glibcVersion(libc: string): Promise<[number, number] | undefined> {
  const match = /release version (\d+)\.(\d+)/.exec((await readFile(libc)).toString('latin1'));
  return match === null ? undefined : [Number(match[1]), Number(match[2])];
}

function compare(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

async function isFileIn(rootfs: string, path: string): Promise<boolean> {
  const host = await pathInImage(rootfs, path).catch(() => undefined);
  return host !== undefined && isFile(host);
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}
