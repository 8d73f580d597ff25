import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { TestProject, Vitest } from 'vitest/node';
import { MAX_WORKERS, sizeWorkersFor, trialsPerFile, workersNeeded } from './worker-sizing.js';

// Only the fields sizeWorkersFor reads, shaped as Vitest 4.1 and 5 resolve them before configureVitest.

interface FakeConfig {
  maxWorkers?: number;
  maxConcurrency: number;
  watch: boolean;
  fileParallelism?: boolean;
  providedOptions?: { maxWorkers: boolean };
}

const runDefault = Math.max(availableParallelism() - 1, 1);
/** What maxWorkers becomes when gz-bench wants `wanted`: never less than Vitest's own default. */
const raisedTo = (wanted: number, otherwise?: number) => (wanted > runDefault ? wanted : otherwise);

/** A run of Vitest 4.1: maxWorkers is unset unless given, on the run and on each project. */
function v4(run: Partial<FakeConfig> = {}, projects: Array<Partial<FakeConfig>> = [{}]) {
  const config = (own: Partial<FakeConfig>): FakeConfig => ({ maxConcurrency: 5, watch: false, ...own });
  const vitest = {
    config: config(run),
    projects: projects.map((own) => ({ config: config(own) })),
  } as unknown as Vitest;
  return { vitest, project: vitest.projects[0] as TestProject };
}

/** A run of Vitest 5: maxWorkers is resolved to the default everywhere, and providedOptions says whether it was given. */
function v5(given?: number) {
  const config = (): FakeConfig => ({
    maxConcurrency: 5,
    watch: false,
    maxWorkers: given ?? runDefault,
    providedOptions: { maxWorkers: given !== undefined },
  });
  const vitest = { config: config(), projects: [{ config: config() }, { config: config() }] } as unknown as Vitest;
  return { vitest, project: vitest.projects[0] as TestProject };
}

describe('sizeWorkersFor', () => {
  it('raises maxConcurrency to the run limit, never lowers it', () => {
    const small = v4({}, [{ maxConcurrency: 5 }]);
    sizeWorkersFor(small.vitest, small.project, 16, [1]);
    expect(small.project.config.maxConcurrency).toBe(16);
    const large = v4({}, [{ maxConcurrency: 100 }]);
    sizeWorkersFor(large.vitest, large.project, 16, [1]);
    expect(large.project.config.maxConcurrency).toBe(100);
  });

  it('asks for the workers that keep the limit busy: the smallest files that reach it, one more, at most one a file', () => {
    for (const [concurrency, files, wanted] of [
      // 8 files of 8: two files fill 16 slots, a third starts as one ends.
      [16, Array(8).fill(8), 3],
      // 8 files of 32 at 64: the same.
      [64, Array(8).fill(32), 3],
      // Uneven: the four smallest files (4 each) are what 16 slots may have to be filled from.
      [16, [36, 4, 4, 4, 4, 4, 4, 4], 5],
      // Files of one case each: a worker per slot, and one more.
      [4, Array(50).fill(1), 5],
      [64, Array(50).fill(1), MAX_WORKERS],
      // Never more than one a file.
      [64, [10, 10, 10], 3],
      [4, [100], 1],
      // A suite that does not load runs no case.
      [2, [0, 0, 5, 5], 2],
    ] as const) {
      expect(workersNeeded(concurrency, files), `${concurrency} at once over [${files.join(', ')}]`).toBe(wanted);
      const { vitest, project } = v4();
      sizeWorkersFor(vitest, project, concurrency, files);
      expect(vitest.config.maxWorkers).toBe(raisedTo(wanted));
      // Vitest 4.1's projects without a maxWorkers of their own take the run's.
      expect(project.config.maxWorkers).toBeUndefined();
    }
  });

  it("counts a file's trials in flight as cases × agents × trials, and as one where the run picks cases", () => {
    const run = { agents: [{}, {}], trials: 3 };
    expect(trialsPerFile([4, 0, 1], run, {}, false)).toEqual([24, 0, 6]);
    expect(trialsPerFile([4, 1], { agents: [], trials: 1 }, {}, false)).toEqual([4, 1]);
    expect(trialsPerFile([4, 0], run, { testNamePattern: /fix/ }, false)).toEqual([1, 0]);
    expect(trialsPerFile([4, 2], run, { tagsFilter: ['slow'] }, false)).toEqual([1, 1]);
    expect(trialsPerFile([4, 2], run, { tagsFilter: [] }, true)).toEqual([1, 1]);
  });

  it('Vitest 5: sets the run and every project alike, which Vitest requires', () => {
    const { vitest, project } = v5();
    sizeWorkersFor(vitest, project, 64, Array(6).fill(1));
    const all = [vitest.config, ...vitest.projects.map((each) => each.config)].map((config) => config.maxWorkers);
    expect(all).toEqual(Array(3).fill(raisedTo(6, runDefault)));
  });

  it('leaves maxWorkers alone when the user chose it: for the run, a project, or no file parallelism', () => {
    const runs = [
      v4({ maxWorkers: 2 }),
      v4({}, [{}, { maxWorkers: 3 }]),
      v4({ maxWorkers: 1, fileParallelism: false }),
      v5(2),
    ];
    for (const { vitest, project } of runs) {
      const before = [vitest.config, ...vitest.projects.map((each) => each.config)].map((c) => c.maxWorkers);
      sizeWorkersFor(vitest, project, 64, Array(50).fill(1));
      expect([vitest.config, ...vitest.projects.map((each) => each.config)].map((c) => c.maxWorkers)).toEqual(before);
    }
  });

  it('takes the largest need of the projects of one run', () => {
    const { vitest, project } = v4({}, [{}, {}]);
    const other = vitest.projects[1] as TestProject;
    sizeWorkersFor(vitest, project, 64, Array(7).fill(1));
    sizeWorkersFor(vitest, other, 64, Array(2).fill(1));
    expect(vitest.config.maxWorkers).toBe(raisedTo(7));
    sizeWorkersFor(vitest, other, 64, Array(50).fill(1));
    expect(vitest.config.maxWorkers).toBe(raisedTo(MAX_WORKERS));
  });
});
