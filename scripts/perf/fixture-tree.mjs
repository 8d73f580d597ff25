// A deterministic fixture tree for the copy rows: `files` files of `bytes` in total, with sizes from
// a few bytes to a few hundred KiB (log-uniform) in directories nested up to 8 deep. The same seed
// gives the same tree, byte for byte, on every machine.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const MAX_DEPTH = 8;
// No secret-looking names (.env, .pem…): gz-bench would skip those, cp would not, and the two would
// not copy the same tree.
const EXTENSIONS = ['js', 'ts', 'json', 'md', 'txt', 'bin'];

/** Writes the tree into `root` (created); resolves with its file and directory counts. */
export async function writeFixtureTree(root, { files, bytes, seed = 8 }) {
  const random = generator(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];

  const directories = [{ path: '', depth: 0 }];
  const directoryCount = Math.max(1, Math.round(files / 16));
  for (let index = 1; index < directoryCount; index += 1) {
    const parents = directories.filter((directory) => directory.depth < MAX_DEPTH);
    const parent = pick(parents);
    directories.push({ path: join(parent.path, `d${index}`), depth: parent.depth + 1 });
  }

  const weights = Array.from({ length: files }, () => Math.exp(random() * Math.log(10_000)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const sizes = weights.map((weight) => Math.floor((weight / total) * bytes));
  sizes[sizes.length - 1] += bytes - sizes.reduce((sum, size) => sum + size, 0);

  // File contents are slices of one seeded pool of bytes, at seeded offsets.
  const pool = Buffer.alloc(1 << 20);
  for (let offset = 0; offset < pool.length; offset += 4) pool.writeUInt32LE(Math.floor(random() * 2 ** 32), offset);
  const content = (size) => {
    const out = Buffer.alloc(size);
    let start = Math.floor(random() * pool.length);
    for (let written = 0; written < size; ) {
      const copied = pool.copy(out, written, start, Math.min(pool.length, start + size - written));
      written += copied;
      start = 0;
    }
    return out;
  };

  for (const directory of directories) await mkdir(join(root, directory.path), { recursive: true });
  for (const [index, size] of sizes.entries()) {
    const directory = pick(directories);
    await writeFile(join(root, directory.path, `f${index}.${pick(EXTENSIONS)}`), content(size));
  }
  return { files, directories: directories.length };
}
