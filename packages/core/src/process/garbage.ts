// Where the process was started with `--expose-gc` (the plugin gives Vitest's fork workers the
// flag), the harness asks V8 for collections it would otherwise put off. Elsewhere this does nothing.
//
// Output: a command's output arrives in chunks of up to 64 KiB, each a Buffer of its own. Once
// written to the log and counted, they are garbage, but V8 collects them only with the young
// generation, and their bytes live outside the heap: it lets tens of MiB of them pile up before it
// looks. A worker reading a loud agent (1 GiB of output in the benchmark) grew by 35 MiB while it
// did; by 17 MiB with this. A young-generation collection after every 2 MiB of output frees them,
// for about 0.5 ms per MiB.
//
// Cases: what a case allocates lives as long as the case, long enough to reach the old generation,
// which V8 lets grow before it collects it. A worker's live heap stays at some 15 MiB however many
// cases it runs, yet from 100 to 1,000 cases over 8 files each worker grew by 16 MiB. A collection of
// the old generation after every 16 cases halved that. It is a whole mark-compact on this thread,
// 7–9 ms for a worker's 13 MiB heap (2 cores, Node 20): run as a case ended, it held up the next
// case of the file, 0.5 ms a case. So it waits for the next command to start, when the worker has
// nothing to do but wait for that command, which runs on its own meanwhile.

/** Output bytes between two collections: garbage beyond this is not kept waiting for V8. */
export const OUTPUT_BYTES_PER_COLLECTION = 2 * 2 ** 20;

/** Cases between two collections of the old generation. */
export const CASES_PER_COLLECTION = 16;

import { atNextCommandStart } from './command-start.js';

type Gc = (options: { type: 'minor' | 'major'; execution?: 'async' }) => void;

let outputSinceCollection = 0;
let casesSinceCollection = 0;
let collectionDue = false;

/** Counts `bytes` of output that were read and are done with, and collects them when enough are. */
export function outputConsumed(bytes: number): void {
  outputSinceCollection += bytes;
  if (outputSinceCollection < OUTPUT_BYTES_PER_COLLECTION) return;
  outputSinceCollection = 0;
  exposedGc()?.({ type: 'minor' });
}

/** Counts a case that ended; once enough have, what they left is collected as the next command starts. */
export function caseEnded(): void {
  casesSinceCollection += 1;
  if (casesSinceCollection < CASES_PER_COLLECTION) return;
  casesSinceCollection = 0;
  if (collectionDue) return;
  collectionDue = true;
  atNextCommandStart(() => {
    collectionDue = false;
    exposedGc()?.({ type: 'major', execution: 'async' });
  });
}

function exposedGc(): Gc | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as Gc) : undefined;
}
