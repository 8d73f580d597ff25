// The shortest edit script between two lists of lines (Myers, "An O(ND) difference algorithm and its
// variations", 1986), bounded: past `maxEdits` edits it gives up on a minimal script and replaces the
// whole middle (after the common head and tail), which is still a correct diff. Lines are compared as
// numbers, one per distinct line, so the inner loop never compares strings.

/** One step of an edit script: keep a line of both, delete a line of `a`, insert a line of `b`. */
export type EditOp = 0 | 1 | 2;
/** A line of both sides. */
export const KEEP: EditOp = 0;
/** A line of the old side only. */
export const DELETE: EditOp = 1;
/** A line of the new side only. */
export const INSERT: EditOp = 2;

/**
 * Edits beyond which the script is not minimal. The search keeps one row of 2d+1 numbers per edit
 * d, so memory is about 4·maxEdits² bytes (4 MiB here) and time O((N+M)·maxEdits), for a diff that
 * is read by a person anyway.
 */
export const MAX_EDITS = 1000;

/** The edit script from `a` to `b`, in order; within each run of changes, deletions come first (as diff prints them). */
export function diffLines(a: readonly string[], b: readonly string[], maxEdits = MAX_EDITS): EditOp[] {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const left = Int32Array.from(a, idOf);
  const right = Int32Array.from(b, idOf);
  let head = 0;
  while (head < left.length && head < right.length && left[head] === right[head]) head += 1;
  let tail = 0;
  while (
    tail < left.length - head &&
    tail < right.length - head &&
    left[left.length - 1 - tail] === right[right.length - 1 - tail]
  ) {
    tail += 1;
  }
  const middle =
    shortestScript(left.subarray(head, left.length - tail), right.subarray(head, right.length - tail), maxEdits) ??
    replaceAll(left.length - head - tail, right.length - head - tail);
  const ops: EditOp[] = [];
  for (let index = 0; index < head; index += 1) ops.push(KEEP);
  ops.push(...deletionsFirst(middle));
  for (let index = 0; index < tail; index += 1) ops.push(KEEP);
  return ops;
}

function replaceAll(deleted: number, inserted: number): EditOp[] {
  return [...new Array<EditOp>(deleted).fill(DELETE), ...new Array<EditOp>(inserted).fill(INSERT)];
}

/** Myers' greedy forward search with its trace kept for the way back; undefined past `maxEdits`. */
function shortestScript(a: Int32Array, b: Int32Array, maxEdits: number): EditOp[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return replaceAll(n, m);
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d += 1) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return backtrack(trace, n, m);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return undefined;
}

/** The script the trace of rows found, from its end back to its start. */
function backtrack(trace: Int32Array[], n: number, m: number): EditOp[] {
  const reversed: EditOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d -= 1) {
    // Row d-1 holds k from -(d-1) to d-1 at indices 0 to 2d-2.
    const previous = trace[d - 1] as Int32Array;
    const at = (k: number): number => previous[k + d - 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      reversed.push(KEEP);
      x -= 1;
      y -= 1;
    }
    reversed.push(down ? INSERT : DELETE);
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    reversed.push(KEEP);
    x -= 1;
    y -= 1;
  }
  return reversed.reverse();
}

/** The same script with each run of changes reordered: its deletions, then its insertions. */
function deletionsFirst(ops: EditOp[]): EditOp[] {
  const out: EditOp[] = [];
  let deleted = 0;
  let inserted = 0;
  const flush = (): void => {
    for (; deleted > 0; deleted -= 1) out.push(DELETE);
    for (; inserted > 0; inserted -= 1) out.push(INSERT);
  };
  for (const op of ops) {
    if (op === KEEP) {
      flush();
      out.push(KEEP);
    } else if (op === DELETE) deleted += 1;
    else inserted += 1;
  }
  flush();
  return out;
}
