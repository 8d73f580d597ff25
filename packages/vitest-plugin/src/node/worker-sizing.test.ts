import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { TestProject, Vitest } from 'vitest/node';
import { MAX_WORKERS, sizeWorkersFor } from './worker-sizing.js';

// Only the fields sizeWorkersFor reads, as Vitest 4.1 and 5 resolve them before configureVitest.
function run(maxWorkers?: number, watch = false) {
  const vitest = { config: { maxWorkers, watch } } as unknown as Vitest;
  const project = (maxConcurrency = 5, own?: number) =>
    ({ config: { maxConcurrency, maxWorkers: own } }) as unknown as TestProject;
  return { vitest, project };
}

const runDefault = Math.max(availableParallelism() - 1, 1);
/** What maxWorkers becomes when gz-bench wants `wanted`: never less than Vitest's own default. */
const raisedTo = (wanted: number) => (wanted > runDefault ? wanted : undefined);

describe('sizeWorkersFor', () => {
  it('raises maxConcurrency to the run limit, never lowers it', () => {
    const { vitest, project } = run();
    const small = project(5);
    sizeWorkersFor(vitest, small, 16, 1);
    expect(small.config.maxConcurrency).toBe(16);
    const large = project(100);
    sizeWorkersFor(vitest, large, 16, 1);
    expect(large.config.maxConcurrency).toBe(100);
  });

  it('asks for min(concurrency, suite files, MAX_WORKERS) workers', () => {
    for (const [concurrency, files, wanted] of [
      [64, 3, 3],
      [2, 50, 2],
      [64, 50, MAX_WORKERS],
      [4, 1, 1],
    ] as const) {
      const { vitest, project } = run();
      sizeWorkersFor(vitest, project(), concurrency, files);
      expect(vitest.config.maxWorkers, `${concurrency} at once over ${files} files`).toBe(raisedTo(wanted));
    }
  });

  it('leaves maxWorkers alone when the user chose it, for the run or the project', () => {
    const chosen = run(2);
    sizeWorkersFor(chosen.vitest, chosen.project(), 64, 50);
    expect(chosen.vitest.config.maxWorkers).toBe(2);
    const own = run();
    sizeWorkersFor(own.vitest, own.project(5, 3), 64, 50);
    expect(own.vitest.config.maxWorkers).toBeUndefined();
  });

  it('takes the largest need of the projects of one run', () => {
    const { vitest, project } = run();
    sizeWorkersFor(vitest, project(), 64, 7);
    sizeWorkersFor(vitest, project(), 64, 2);
    expect(vitest.config.maxWorkers).toBe(raisedTo(7));
    sizeWorkersFor(vitest, project(), 64, 50);
    expect(vitest.config.maxWorkers).toBe(raisedTo(MAX_WORKERS));
  });
});
