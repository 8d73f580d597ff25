import { dirname } from 'node:path';
import {
  type CaseLocation,
  type CaseResult,
  caseBudgetMs,
  caseLogLocation,
  type ResolvedSandbox,
  resolveSandbox,
  runCase,
  type Suite,
  withSuiteSettings,
} from '@gz-bench/core/run';
import { inject, type TestContext } from 'vitest';
import { PROVIDE_KEY, type WorkerOptions } from '../shared/options.js';
import { attemptController } from './attempt-controller.js';
import { CaseBudgetError, runWithinBudget } from './case-budget.js';
import { dieWithVitestMain } from './die-with-main.js';
import { acquireSlot } from './slot-client.js';

declare module 'vitest' {
  interface TaskMeta {
    /** The case's result, read by the gz-bench reporter; it survives blob shards and --merge-reports. */
    gzBench?: CaseResult;
    /** Set when a gz-bench case starts, so the reporter tells its tests from the project's other tests. */
    gzBenchSuite?: string;
  }
}

/** The data a generated suite module passes to the runtime. */
export interface SuiteModuleData {
  suite: Suite;
  /** Absolute path of the suite file. */
  file: string;
  /** Where each case starts in the suite file. */
  locations: CaseLocation[];
}

/** What a generated suite module calls: options for its describe block and the body of each case's test. */
export interface DefinedSuite {
  describeOptions: { concurrent: true } | { sequential: true };
  runCase(index: number, context: TestContext): Promise<void>;
}

// How long a cancelled case may take to end its processes and remove its workspace before Vitest moves on.
const SETTLE_TIMEOUT_MS = 30_000;

/** Binds a suite's data to the run options provided by the plugin. */
export function defineSuite(data: SuiteModuleData): DefinedSuite {
  const options = inject(PROVIDE_KEY) as WorkerOptions | undefined;

  return {
    // Any case may run beside any other, of this file or another: the run's slots decide how many do.
    // One at a time, a file's cases run in order, as plain tests do: a case asks for the slot only
    // once the one before it is over, so that --bail stops the run before the next one starts.
    describeOptions: options?.concurrency === 1 ? { sequential: true } : { concurrent: true },
    async runCase(index, context) {
      const testCase = data.suite.cases[index];
      if (!testCase) throw new Error(`gz-bench: suite "${data.suite.name}" has no case ${index}`);
      context.task.meta.gzBenchSuite = data.suite.name;
      if (!options?.cmd) {
        throw caseFailure(
          'no agent command: set `cmd` in gzBench({ cmd }) or the GZ_BENCH_CMD environment variable',
          data,
          index,
        );
      }
      if (options.slots === undefined) {
        throw caseFailure(
          'the gz-bench plugin did not set up this run: add gzBench() to the plugins of its Vitest config',
          data,
          index,
        );
      }
      const { cmd, slots } = options;
      dieWithVitestMain();
      const sandbox = await workerSandbox(options);
      const { controller, release } = attemptController(context.signal);
      const budgetMs = caseBudgetMs(testCase, options.timeout);
      const run = (async () => {
        // The slot comes first: a case waiting for one has no area and no process yet, and a run
        // cancelled meanwhile leaves it not run.
        const slot = await acquireSlot(slots.path, { token: slots.token, signal: controller.signal });
        try {
          controller.signal.throwIfAborted();
          const { value, exceeded } = await runWithinBudget(budgetMs, SETTLE_TIMEOUT_MS, controller, () =>
            runCase(withSuiteSettings(data.suite, testCase), {
              cmd,
              keep: options.keep,
              signal: controller.signal,
              suiteDir: dirname(data.file),
              allowEnv: options.allowEnv,
              allowSecrets: options.allowSecrets,
              sandbox,
              ...(options.timeout !== undefined && { timeoutSec: options.timeout }),
              ...(options.logs && {
                logs: caseLogLocation({
                  logsDir: options.logs.dir,
                  root: options.logs.root,
                  suiteFile: data.file,
                  caseId: testCase.id,
                }),
              }),
            }),
          );
          const result = exceeded ? overBudget(value, budgetMs) : value;
          context.task.meta.gzBench = result;
          return result;
        } finally {
          // Only now: runCase resolves once the case's processes are dead and its area is gone.
          slot.release();
        }
      })();
      void run.then(release, release);
      // A cancelled run (Ctrl-C, bail) stops waiting for a test's body at once, while its case still
      // ends its processes and removes its workspace. The test's own finishing hook waits for that, so
      // the worker is not torn down halfway through and the case's result is in the test's meta before
      // Vitest reports the test.
      context.onTestFinished(async () => {
        await run.catch(() => {});
      }, SETTLE_TIMEOUT_MS);
      const result = await run;
      if (!result.passed) throw caseFailure(result.error ?? 'case failed', data, index);
    },
  };
}

/** A case stopped at its budget fails with that, not with the interruption its commands saw. */
function overBudget(result: CaseResult, budgetMs: number): CaseResult {
  return {
    ...result,
    passed: false,
    outcome: 'timedOut',
    error: new CaseBudgetError(budgetMs).message,
    failedStep: 'harness',
  };
}

let sandboxOfWorker: Promise<ResolvedSandbox> | undefined;

/** The sandbox of this worker's cases, probed once per worker process. */
function workerSandbox(options: WorkerOptions): Promise<ResolvedSandbox> {
  sandboxOfWorker ??= resolveSandbox(options.sandbox);
  return sandboxOfWorker;
}

/** An error whose only frame is the case in the suite file, so Vitest shows the case's JSON as the code frame. */
function caseFailure(message: string, data: SuiteModuleData, index: number): Error {
  const error = new Error(message);
  error.name = 'CaseFailure';
  const location = data.locations[index];
  const target = location?.id ?? location;
  const frame = target ? `\n    at ${data.file}:${target.line}:${target.column + 1}` : '';
  error.stack = `CaseFailure: ${message}${frame}`;
  return error;
}
