import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DELETE, diffLines, INSERT, KEEP } from './line-diff.js';
import { gnuDiff } from './test-support/gnu-diff.js';
import { splitLines, unifiedHunks } from './unified-diff.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-udiff-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** GNU diff's hunks of one file from `before` to `after`, without its two header lines. */
async function gnuHunks(before: string, after: string): Promise<string> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(dir, 'a'), { recursive: true });
  await mkdir(join(dir, 'b'), { recursive: true });
  await writeFile(join(dir, 'a', 'f'), Buffer.from(before, 'latin1'));
  await writeFile(join(dir, 'b', 'f'), Buffer.from(after, 'latin1'));
  return gnuDiff(dir).split('\n').slice(3).join('\n');
}

const lines = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => `line ${index + from}\n`).join('');

describe('unifiedHunks', () => {
  it.each([
    ['one changed line in the middle', lines(20), lines(20).replace('line 10\n', 'line ten\n')],
    ['changes far apart make two hunks', lines(30), lines(30).replace('line 3\n', 'x\n').replace('line 25\n', 'y\n')],
    [
      'changes six lines apart make one hunk',
      lines(30),
      lines(30).replace('line 5\n', 'x\n').replace('line 12\n', 'y\n'),
    ],
    ['changes seven lines apart make two', lines(30), lines(30).replace('line 5\n', 'x\n').replace('line 13\n', 'y\n')],
    ['lines added at the end', lines(5), lines(8)],
    ['lines removed at the start', lines(8), lines(5, 4)],
    ['a file made from nothing', '', lines(4)],
    ['a file emptied', lines(2), ''],
    ['a last line without a newline, kept', 'a\nb\nc', 'a\nB\nc'],
    ['a newline added at the end', 'a\nb', 'a\nb\n'],
    ['a newline taken from the end', 'a\nb\n', 'a\nb'],
    ['one line, no newline on either side', 'old', 'new'],
    ['bytes that are not UTF-8', 'caf\xe9\n\xff\xfe\n', 'caf\xe9!\n\xff\xfe\n'],
    ['carriage returns are part of lines', 'a\r\nb\r\n', 'a\r\nc\r\n'],
  ])('%s: the same hunks as diff -u', async (_name, before, after) => {
    expect(unifiedHunks(before, after).text).toBe(await gnuHunks(before, after));
  });

  it('counts lines added and removed', () => {
    const hunks = unifiedHunks(lines(10), lines(10).replace('line 2\n', 'x\ny\n').replace('line 9\n', ''));
    expect([hunks.added, hunks.removed]).toEqual([2, 2]);
  });

  it('is empty for equal contents', () => {
    expect(unifiedHunks(lines(3), lines(3))).toEqual({ text: '', added: 0, removed: 0 });
  });
});

describe('diffLines', () => {
  it('finds a shortest script', () => {
    const ops = diffLines(['a', 'b', 'c', 'a', 'b', 'b', 'a'], ['c', 'b', 'a', 'b', 'a', 'c']);
    expect(ops.filter((op) => op !== KEEP)).toHaveLength(5);
  });

  it('gives up on a minimal script past its edit bound, still a correct one', () => {
    const a = Array.from({ length: 4000 }, (_, index) => `a${index}`);
    const b = Array.from({ length: 4000 }, (_, index) => (index % 2 === 0 ? `a${index}` : `b${index}`));
    const started = performance.now();
    const ops = diffLines(a, b, 100);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(ops.filter((op) => op !== INSERT)).toHaveLength(a.length);
    expect(ops.filter((op) => op !== DELETE)).toHaveLength(b.length);
  });

  it('splits lines keeping their newlines', () => {
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
    expect(splitLines('a\n')).toEqual(['a\n']);
    expect(splitLines('')).toEqual([]);
  });
});
