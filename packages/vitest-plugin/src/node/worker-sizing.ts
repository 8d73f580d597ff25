import { availableParallelism } from 'node:os';
import { glob } from 'tinyglobby';
import type { TestProject, Vitest } from 'vitest/node';

/**
 * The most workers gz-bench asks for. A fork worker takes about 60 MB and starts in about a second
 * on a busy 2-core machine, and its first case starts a guardian process (about 40 MB) beside it;
 * workers only wait on agents, and each runs up to `concurrency` cases of its file at once, so a few
 * are enough unless suite files hold only a handful of cases each.
 */
export const MAX_WORKERS = 8;

/**
 * Lets the run reach `concurrency` cases at once across suite files. Vitest runs the tests of a file
 * in one worker, at most `maxConcurrency` of them at once (default 5), and a worker one file at a
 * time (on 2 cores Vitest starts 1 worker by default). So the project's `maxConcurrency` is raised to
 * `concurrency`, and, unless the user chose `maxWorkers` (config, `--maxWorkers`, `VITEST_MAX_WORKERS`),
 * the run's workers to min(concurrency, suite files, MAX_WORKERS), never below Vitest's own default.
 * The run's slots then decide which cases run: these only make room for them.
 */
export function sizeWorkersFor(vitest: Vitest, project: TestProject, concurrency: number, suiteFiles: number): void {
  if (project.config.maxConcurrency < concurrency) project.config.maxConcurrency = concurrency;
  const ours = sizedByUs.get(vitest);
  // Vitest 5 has resolved every project when configureVitest runs; 4.1 may not have, and its projects
  // without a maxWorkers of their own use the run's.
  const projects = vitest.projects.length > 0 ? vitest.projects : [project];
  const configs: WorkerConfig[] = [vitest.config, ...projects.map((each) => each.config)];
  if (configs.some((config) => chosenByUser(config, ours))) return;
  // Each project that serves suites may need more: the run's workers are shared.
  const wanted = Math.max(Math.min(concurrency, suiteFiles, MAX_WORKERS), ours ?? 0);
  if (wanted <= vitestDefaultWorkers(vitest.config.watch)) return;
  // All alike: Vitest refuses projects of one run whose maxWorkers differ.
  for (const config of configs)
    if (config === vitest.config || config.maxWorkers !== undefined) config.maxWorkers = wanted;
  sizedByUs.set(vitest, wanted);
}

/** What sizing reads and writes of a resolved config, in Vitest 4.1 and 5. */
interface WorkerConfig {
  maxWorkers?: number | undefined;
  fileParallelism?: boolean | undefined;
  /** Vitest 5: which options the user gave, since it resolves maxWorkers to its default up front. */
  providedOptions?: { maxWorkers?: boolean };
}

/** Whether the user chose the workers: maxWorkers in a config, --maxWorkers, VITEST_MAX_WORKERS, or no file parallelism. */
function chosenByUser(config: WorkerConfig, ours: number | undefined): boolean {
  if (config.fileParallelism === false) return true;
  if (config.providedOptions !== undefined) return config.providedOptions.maxWorkers === true;
  // Vitest 4.1 leaves maxWorkers unset unless it was given (or set by gz-bench for an earlier project).
  return config.maxWorkers !== undefined && config.maxWorkers !== ours;
}

/** The run's maxWorkers where gz-bench set it, to tell it from a value the user chose. */
const sizedByUs = new WeakMap<Vitest, number>();

/** How many files under `root` the suite globs match, as Vitest would find them. */
export async function countSuiteFiles(root: string, include: string[], exclude: string[]): Promise<number> {
  return (await glob(include, { cwd: root, ignore: exclude, dot: true, onlyFiles: true })).length;
}

// As Vitest 4.1 and 5 decide it when maxWorkers is not set.
function vitestDefaultWorkers(watch: boolean): number {
  const cores = availableParallelism();
  return watch ? Math.max(Math.floor(cores / 2), 1) : Math.max(cores - 1, 1);
}
