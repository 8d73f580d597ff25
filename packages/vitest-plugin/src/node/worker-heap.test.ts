import { describe, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import { sizeWorkerHeap, WORKER_SEMI_SPACE_MB } from './worker-heap.js';

// Only the fields sizeWorkerHeap reads, as Vitest 4.1 and 5 resolve them before configureVitest.
function project(pool: string, execArgv: string[] = []) {
  return { config: { pool, execArgv } } as unknown as TestProject & { config: { execArgv: string[] } };
}

const FLAG = `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`;
const SIZE = '--optimize-for-size';
const GC = '--expose-gc';

describe('sizeWorkerHeap', () => {
  it('caps the young generation of fork workers and sizes their heap for memory, once however often it is asked', () => {
    const forks = project('forks', ['--conditions=dev']);
    sizeWorkerHeap(forks, '');
    sizeWorkerHeap(forks, '');
    expect(forks.config.execArgv).toEqual(['--conditions=dev', FLAG, SIZE, GC]);
    for (const pool of ['vmForks', 'gz-bench-forks']) {
      const other = project(pool);
      sizeWorkerHeap(other, undefined);
      expect(other.config.execArgv).toEqual([FLAG, SIZE, GC]);
    }
  });

  it('leaves worker threads alone: they refuse V8 flags in execArgv', () => {
    for (const pool of ['threads', 'vmThreads']) {
      const threads = project(pool);
      sizeWorkerHeap(threads, '');
      expect(threads.config.execArgv).toEqual([]);
    }
  });

  it('leaves a young generation the user sized, in execArgv or NODE_OPTIONS', () => {
    const own = project('forks', ['--max-semi-space-size=8']);
    sizeWorkerHeap(own, '');
    expect(own.config.execArgv).toEqual(['--max-semi-space-size=8', SIZE, GC]);
    const underscored = project('forks', ['--max_semi_space_size=4']);
    sizeWorkerHeap(underscored, '');
    expect(underscored.config.execArgv).toEqual(['--max_semi_space_size=4', SIZE, GC]);
    const fromEnv = project('forks');
    sizeWorkerHeap(fromEnv, '--enable-source-maps --max-semi-space-size=16');
    expect(fromEnv.config.execArgv).toEqual([SIZE, GC]);
  });

  it('leaves the sizing alone where the user chose it either way', () => {
    for (const flag of ['--optimize-for-size', '--no-optimize-for-size', '--optimize_for_size']) {
      const own = project('forks', [flag]);
      sizeWorkerHeap(own, '');
      expect(own.config.execArgv).toEqual([flag, FLAG, GC]);
      const fromEnv = project('forks');
      sizeWorkerHeap(fromEnv, flag);
      expect(fromEnv.config.execArgv).toEqual([FLAG, GC]);
    }
    for (const flag of ['--expose-gc', '--no-expose-gc', '--expose_gc']) {
      const own = project('forks', [flag]);
      sizeWorkerHeap(own, '');
      expect(own.config.execArgv).toEqual([flag, FLAG, SIZE]);
    }
  });
});
