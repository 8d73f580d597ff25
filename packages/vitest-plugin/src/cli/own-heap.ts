import { setFlagsFromString } from 'node:v8';
import { choseFlag, givenFlags } from '../node/v8-flags.js';

// The CLI's process holds Vitest's state, the suites' modules and the report; what it collects grows
// with the suites, and V8 lets the heap grow with it before collecting. Sized for memory from the
// moment Vitest starts (not before, where it slowed the start-up by some 100 ms), its peak at 1,000
// cases fell from 175 to 157 MiB, with no measurable change in start-up. The process is gz-bench's
// own: no user code shares it.

const FLAG = '--optimize-for-size';

/** The V8 flag to set in the CLI's own process: none where the user chose either way. */
export function ownHeapFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  return choseFlag(givenFlags(execArgv, nodeOptions), FLAG) ? undefined : FLAG;
}

/** Sizes the CLI's own heap for memory over speed (see above); call as Vitest starts its run. */
export function sizeOwnHeap(): void {
  const flag = ownHeapFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag !== undefined) setFlagsFromString(flag);
}
