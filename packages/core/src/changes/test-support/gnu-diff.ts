import { spawnSync } from 'node:child_process';

/**
 * What GNU `diff -ruN a b` says, run in `dir` (which holds `a` and `b`), with the timestamps of its
 * `---` and `+++` lines taken off, as latin1 (byte for byte).
 */
export function gnuDiff(dir: string): string {
  const run = spawnSync('diff', ['-ruN', 'a', 'b'], { cwd: dir, env: { ...process.env, LC_ALL: 'C' } });
  if (run.status !== 0 && run.status !== 1) throw new Error(`diff failed: ${run.stderr.toString()}`);
  return run.stdout.toString('latin1').replace(/^((?:---|\+\+\+) [^\t\n]*)\t[^\n]*$/gm, '$1');
}

/** The parts of a diff that `diff -ruN` would print too: without gz-bench's own note and mode lines. */
export function withoutNotes(diff: string): string {
  const pieces = diff
    .split(/^(?=diff -ruN |Binary files )/m)
    .filter((piece) => piece.startsWith('diff -ruN ') || piece.startsWith('Binary files '));
  return pieces
    .map((piece) => piece.replace(/^(?:old mode|new mode|#).*\n/gm, ''))
    .filter((piece) => /^(?:---|Binary files)/m.test(piece))
    .join('');
}
