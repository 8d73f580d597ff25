import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full collection on demand, without starting the test process with --expose-gc: the flag set at
// run time makes `gc` available to contexts created afterwards.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Bytes still in use after `make()` returned (the JavaScript heap and the memory of Buffers), with
 * everything unreachable collected: what the values it returns keep alive. `make`'s result is held
 * until the measurement is taken.
 */
export function retainedHeapBytes(make: () => unknown): number {
  collectGarbage();
  const before = inUse();
  const kept = make();
  collectGarbage();
  const after = inUse();
  // Read after the measurement, so that the result cannot be collected before it.
  if (kept === Symbol.for('never')) return Number.NaN;
  return after - before;
}

function inUse(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
