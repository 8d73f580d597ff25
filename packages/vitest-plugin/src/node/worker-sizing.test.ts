import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { TestProject, Vitest } from 'vitest/node';
import { MAX_WORKERS, sizeWorkersFor } from './worker-sizing.js';

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
    sizeWorkersFor(small.vitest, small.project, 16, 1);
    expect(small.project.config.maxConcurrency).toBe(16);
    const large = v4({}, [{ maxConcurrency: 100 }]);
    sizeWorkersFor(large.vitest, large.project, 16, 1);
    expect(large.project.config.maxConcurrency).toBe(100);
  });

  it('asks for min(concurrency, suite files, MAX_WORKERS) workers', () => {
    for (const [concurrency, files, wanted] of [
      [64, 3, 3],
      [2, 50, 2],
      [64, 50, MAX_WORKERS],
      [4, 1, 1],
    ] as const) {
      const { vitest, project } = v4();
      sizeWorkersFor(vitest, project, concurrency, files);
      expect(vitest.config.maxWorkers, `${concurrency} at once over ${files} files`).toBe(raisedTo(wanted));
      // Vitest 4.1's projects without a maxWorkers of their own take the run's.
      expect(project.config.maxWorkers).toBeUndefined();
    }
  });

  it('Vitest 5: sets the run and every project alike, which Vitest requires', () => {
    const { vitest, project } = v5();
    sizeWorkersFor(vitest, project, 64, 6);
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
      sizeWorkersFor(vitest, project, 64, 50);
      expect([vitest.config, ...vitest.projects.map((each) => each.config)].map((c) => c.maxWorkers)).toEqual(before);
    }
  });

  it('takes the largest need of the projects of one run', () => {
    const { vitest, project } = v4({}, [{}, {}]);
    const other = vitest.projects[1] as TestProject;
    sizeWorkersFor(vitest, project, 64, 7);
    sizeWorkersFor(vitest, other, 64, 2);
    expect(vitest.config.maxWorkers).toBe(raisedTo(7));
    sizeWorkersFor(vitest, other, 64, 50);
    expect(vitest.config.maxWorkers).toBe(raisedTo(MAX_WORKERS));
  });
});
