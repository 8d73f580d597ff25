import { availableParallelism } from 'node:os';
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
 * the run's workers to those it needs (see workersNeeded), never below Vitest's own default. The run's
 * slots then decide which cases run: these only make room for them.
 *
 * `casesPerFile` holds, for each suite file, how many trials it can have in flight at once (cases ×
 * agents × trials).
 */
export function sizeWorkersFor(
  vitest: Vitest,
  project: TestProject,
  concurrency: number,
  casesPerFile: readonly number[],
): void {
  if (project.config.maxConcurrency < concurrency) project.config.maxConcurrency = concurrency;
  const ours = sizedByUs.get(vitest);
  // Vitest 5 has resolved every project when configureVitest runs; 4.1 may not have, and its projects
  // without a maxWorkers of their own use the run's.
  const projects = vitest.projects.length > 0 ? vitest.projects : [project];
  const configs: WorkerConfig[] = [vitest.config, ...projects.map((each) => each.config)];
  if (configs.some((config) => chosenByUser(config, ours))) return;
  // Each project that serves suites may need more: the run's workers are shared.
  const wanted = Math.max(workersNeeded(concurrency, casesPerFile), ours ?? 0);
  if (wanted <= vitestDefaultWorkers(vitest.config.watch)) return;
  // All alike: Vitest refuses projects of one run whose maxWorkers differ.
  for (const config of configs)
    if (config === vitest.config || config.maxWorkers !== undefined) config.maxWorkers = wanted;
  sizedByUs.set(vitest, wanted);
}

/**
 * The workers that keep `concurrency` trials in flight: every worker but one can be busy with files
 * whose cases are all running, and the one more starts the next file while another file's last cases
 * end. Taken against the smallest files, the worst that can run at once; at most one per file and
 * MAX_WORKERS. Each worker costs a Node process's start-up (CPU that the run's first cases wait for)
 * and its memory, so none beyond these.
 */
export function workersNeeded(concurrency: number, casesPerFile: readonly number[]): number {
  const smallestFirst = casesPerFile.filter((cases) => cases > 0).sort((a, b) => a - b);
  let files = 0;
  let inFlight = 0;
  while (files < smallestFirst.length && inFlight < concurrency) {
    inFlight += smallestFirst[files] ?? 0;
    files += 1;
  }
  return Math.max(1, Math.min(files + 1, smallestFirst.length, MAX_WORKERS));
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

// As Vitest 4.1 and 5 decide it when maxWorkers is not set.
function vitestDefaultWorkers(watch: boolean): number {
  const cores = availableParallelism();
  return watch ? Math.max(Math.floor(cores / 2), 1) : Math.max(cores - 1, 1);
}

/** What trialsPerFile reads of a run's resolved config, in Vitest 4.1 and 5. */
interface SelectionConfig {
  testNamePattern?: RegExp | undefined;
  tagsFilter?: readonly string[] | undefined;
}

/**
 * How many trials each suite file can have in flight: its cases × agents × trials. A run that picks
 * cases by name, by tag or from an earlier report may run as few as one trial of a file, so each then
 * counts as one, and the run gets a worker per file up to its limit.
 */
export function trialsPerFile(
  casesPerFile: readonly number[],
  run: { agents: readonly unknown[]; trials: number },
  config: SelectionConfig,
  resumed: boolean,
): number[] {
  const picked = resumed || config.testNamePattern !== undefined || (config.tagsFilter?.length ?? 0) > 0;
  const perCase = Math.max(1, run.agents.length) * Math.max(1, run.trials);
  return casesPerFile.map((cases) => (picked ? Math.min(cases, 1) : cases * perCase));
}
