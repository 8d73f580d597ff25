import { DELETE, diffLines, INSERT, KEEP } from './line-diff.js';

// The hunks of one text file as `diff -u` prints them. Content is a latin1 string (one character per
// byte), so any encoding goes through unchanged and the diff is written back byte for byte.

/** Lines of context around each change, as `diff -u`. */
export const CONTEXT_LINES = 3;

/** The hunks of a file, and its lines added and removed. */
export interface FileHunks {
  /** `@@ … @@` lines and their lines, each line ending in `\n`; empty when the contents are equal. */
  text: string;
  added: number;
  removed: number;
}

const NO_NEWLINE = '\\ No newline at end of file\n';

/** The unified hunks from `before` to `after` (both latin1 strings). */
export function unifiedHunks(before: string, after: string): FileHunks {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  // Positions of each op in a and b.
  const changes: number[] = [];
  ops.forEach((op, index) => {
    if (op !== KEEP) changes.push(index);
  });
  if (changes.length === 0) return { text: '', added: 0, removed: 0 };
  const aAt = new Int32Array(ops.length + 1);
  const bAt = new Int32Array(ops.length + 1);
  for (let index = 0; index < ops.length; index += 1) {
    aAt[index + 1] = (aAt[index] as number) + (ops[index] === INSERT ? 0 : 1);
    bAt[index + 1] = (bAt[index] as number) + (ops[index] === DELETE ? 0 : 1);
  }
  let text = '';
  let added = 0;
  let removed = 0;
  let next = 0;
  while (next < changes.length) {
    // A hunk runs from its first change to the last change whose gap to the one before is at most
    // twice the context: diff joins those into one hunk.
    let last = next;
    while (last + 1 < changes.length) {
      const gap = (changes[last + 1] as number) - (changes[last] as number) - 1;
      if (gap > 2 * CONTEXT_LINES) break;
      last += 1;
    }
    const start = Math.max(0, (changes[next] as number) - CONTEXT_LINES);
    const end = Math.min(ops.length, (changes[last] as number) + 1 + CONTEXT_LINES);
    const aStart = aAt[start] as number;
    const bStart = bAt[start] as number;
    const aCount = (aAt[end] as number) - aStart;
    const bCount = (bAt[end] as number) - bStart;
    text += `@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@\n`;
    for (let index = start; index < end; index += 1) {
      const op = ops[index];
      if (op === KEEP) text += lineOut(' ', a[aAt[index] as number] as string);
      else if (op === DELETE) {
        text += lineOut('-', a[aAt[index] as number] as string);
        removed += 1;
      } else {
        text += lineOut('+', b[bAt[index] as number] as string);
        added += 1;
      }
    }
    next = last + 1;
  }
  return { text, added, removed };
}

/** A range as diff prints it: `start,count`, the count left out when 1, the line before when 0. */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  if (count === 1) return `${start + 1}`;
  return `${start + 1},${count}`;
}

function lineOut(prefix: string, line: string): string {
  return line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n${NO_NEWLINE}`;
}

/** The lines of a text, each with its `\n` but a last one without. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      lines.push(text.slice(start));
      break;
    }
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  return lines;
}
