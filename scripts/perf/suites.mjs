// Suite files of the measured runs, written into a run's private directories.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `cases` as `files` suite files (`<name>-1.bench.json`…, in contiguous chunks as even as
 * they divide, each its own suite name), with `settings` on every suite; resolves with their paths.
 * `uneven` makes the chunks grow with the file's number instead (1 : 2 : … : files), as real suites do.
 */
export async function writeSuites(dir, name, cases, files = 1, settings = {}, { uneven = false } = {}) {
  const count = Math.max(1, Math.min(files, cases.length));
  const weight = (index) => (uneven ? index + 1 : 1);
  const total = Array.from({ length: count }, (_, index) => weight(index)).reduce((a, b) => a + b, 0);
  let before = 0;
  const paths = [];
  for (let index = 0; index < count; index += 1) {
    const from = Math.floor((before * cases.length) / total);
    before += weight(index);
    const to = Math.floor((before * cases.length) / total);
    const path = join(dir, `${name}-${index + 1}.bench.json`);
    const suite = { name: `${name}-${index + 1}`, ...settings, cases: cases.slice(from, to) };
    await writeFile(path, `${JSON.stringify(suite, null, 2)}\n`);
    paths.push(path);
  }
  return paths;
}

/** `count` cases made by `make(id)`, ids `<prefix>-1`…. */
export function manyCases(prefix, count, make) {
  return Array.from({ length: count }, (_, index) => make(`${prefix}-${index + 1}`));
}
