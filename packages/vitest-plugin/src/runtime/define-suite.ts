import {
  type AgentDefinition,
  type ArmSet,
  type BaselineEntry,
  type BaselineJudgement,
  type Case,
  type CaseLocation,
  type CellRule,
  columnName,
  type ResolvedSandbox,
  resolveSandbox,
  type Suite,
  settleDeferredRemovals,
  warmUpCommandLaunch,
  withSuiteSettings,
} from '@gz-bench/core/run';
import { afterAll, inject, type TestContext } from 'vitest';
import { PROVIDE_KEY, type WorkerOptions } from '../shared/options.js';
import { attemptController } from './attempt-controller.js';
import { againstBaseline } from './baseline-verdict.js';
import { cellVerdict } from './cell-verdict.js';
import { dieWithVitestMain } from './die-with-main.js';
import { cutShortByCancel, runWasCancelled } from './interrupted-trial.js';
import { leaveInterruptsToMain } from './leave-interrupts-to-main.js';
import { oracleCellVerdict } from './oracle-verdict.js';
import { annotateOutcome } from './outcome-annotation.js';
import { cellTrials } from './resume-cell.js';
import { withErrorRetries } from './retry-errors.js';
import { runTrial, SETTLE_TIMEOUT_MS, type TrialResult } from './run-trial.js';
import { annotateTrials } from './trial-annotations.js';

declare module 'vitest' {
  interface TaskMeta {
    /**
     * The results of the cell's trials that ended, in trial order, read by the gz-bench reporter;
     * they survive blob shards and --merge-reports.
     */
    gzBenchTrials?: TrialResult[];
    /** Set when a gz-bench case starts, so the reporter tells its tests from the project's other tests. */
    gzBenchSuite?: string;
    /** The agent of the cell, when the run names agents. */
    gzBenchAgent?: string;
    /** The skill arm of the cell, when the run names arms. */
    gzBenchArm?: string;
    /** How the cell compares with its suite's baseline file, when the suite has one. */
    gzBenchBaseline?: BaselineJudgement;
  }
}

/** The data a generated suite module passes to the runtime. */
export interface SuiteModuleData {
  suite: Suite;
  /** Absolute path of the suite file. */
  file: string;
  /** Where each case starts in the suite file. */
  locations: CaseLocation[];
  /** The suite's baseline file, read by the plugin when it generated the module; absent without one. */
  baseline?: ModuleBaseline;
  /** The suite's arms, their skills read and checked by the plugin; absent without arms. */
  arms?: ArmSet;
}

/** A suite's baseline as the generated module carries it: the rule it was written with, and every entry. */
export interface ModuleBaseline {
  passRule: CellRule;
  cells: Array<{ agentName?: string; caseId: string; entry: BaselineEntry }>;
}

/** What a generated suite module calls: options for its describe block and the body of each cell's test. */
export interface DefinedSuite {
  describeOptions: { concurrent: true } | { sequential: true };
  /**
   * The test of a case in one column: by the named agent `agent` of the run (null: the run's one
   * `cmd`), with the skills of the arm `arm` (null: no arms).
   */
  runCell(index: number, agent: string | null, arm: string | null, context: TestContext): Promise<void>;
}

/** Binds a suite's data to the run options provided by the plugin. */
export function defineSuite(data: SuiteModuleData): DefinedSuite {
  const options = inject(PROVIDE_KEY) as WorkerOptions | undefined;
  // Concurrent at any concurrency, 1 too: the run's slots alone decide which cases run, first come,
  // first served. A test that waits for its slot costs nothing, and one that is already waiting when
  // the case before it gives its slot back starts at once, instead of after Vitest has ended that
  // test and started the next (1.7 → 0.55 ms between two cases of a file, on 2 cores). Only a run
  // that bails at concurrency 1 waits for that, so that Vitest sees a failure before the next starts.
  const describeOptions =
    options?.oneTestAtATime === true ? { sequential: true as const } : { concurrent: true as const };
  if (options?.slots !== undefined) {
    warmUp(options);
    // Cases leave their areas to be removed as the worker's next command starts: none may outlive the file.
    afterAll(removeLeftAreas, 0);
  }

  const run = async (
    index: number,
    agentName: string | undefined,
    armName: string | undefined,
    context: TestContext,
  ): Promise<void> => {
    const testCase = data.suite.cases[index];
    if (!testCase) throw new Error(`gz-bench: suite "${data.suite.name}" has no case ${index}`);
    context.task.meta.gzBenchSuite = data.suite.name;
    if (agentName !== undefined) context.task.meta.gzBenchAgent = agentName;
    if (armName !== undefined) context.task.meta.gzBenchArm = armName;
    const column = columnName({ agentName, arm: armName });
    const arm = data.arms?.arms.find((candidate) => candidate.name === armName);
    if (armName !== undefined && arm === undefined) {
      throw caseFailure(`no arm "${armName}" in this suite's data: run again`, data, index);
    }
    const agent = agentName === undefined ? undefined : findAgent(options, agentName);
    const cmd = agent?.cmd ?? options?.cmd;
    if (!cmd) {
      const missing =
        agentName === undefined
          ? 'no agent command: set `cmd` in gzBench({ cmd }) or the GZ_BENCH_CMD environment variable'
          : `no agent "${agentName}" in this run: it is not among the plugin's agents (or GZ_BENCH_AGENTS left it out)`;
      throw caseFailure(missing, data, index);
    }
    if (options?.slots === undefined) {
      throw caseFailure(
        'the gz-bench plugin did not set up this run: add gzBench() to the plugins of its Vitest config',
        data,
        index,
      );
    }
    const { slots } = options;
    dieWithVitestMain();
    leaveInterruptsToMain();
    const sandbox = await workerSandbox(options);
    const trials = options.trials ?? 1;
    const { controller, release } = attemptController(context.signal);
    // A resumed run (onlyFailed) keeps the earlier passing trials and runs the others.
    const { run: toRun, kept } = cellTrials(options, data.file, { column, caseId: testCase.id }, trials);
    const finished: TrialResult[] = [...kept];
    context.task.meta.gzBenchTrials = finished;
    // With its suite's settings: the trial's budget counts the setup and check bounds the suite gives.
    const merged = withSuiteSettings(data.suite, testCase);
    const plan = {
      suite: data.suite,
      file: data.file,
      testCase: merged,
      agent,
      arm,
      cmd,
      trials,
      options,
      slots,
      sandbox,
    };
    // Every trial of the cell at once: the run's slots decide how many of them, and of all the other
    // cells, actually run.
    const all = Promise.allSettled(
      toRun.map(async (trial) => {
        const ran = await withErrorRetries(
          () => runTrial({ ...plan, trial }, controller.signal),
          options.retryErrors ?? 0,
          controller.signal,
        );
        // Ended after the run was cancelled: cut short, unless it passed first.
        const result = controller.signal.aborted ? cutShortByCancel(ran) : ran;
        finished.push(result);
        finished.sort((a, b) => (a.trial ?? 0) - (b.trial ?? 0));
        return result;
      }),
    );
    void all.then(release, release);
    // A cancelled run (Ctrl-C, bail) stops waiting for a test's body at once, while its trials still
    // end their processes and remove their workspaces. The test's own finishing hook waits for that,
    // so the worker is not torn down halfway through and the results are in the test's meta before
    // Vitest reports the test.
    context.onTestFinished(async () => {
      await all;
    }, SETTLE_TIMEOUT_MS);
    const settled = await all;
    const faults = settled.flatMap((outcome, offset) => (outcome.status === 'rejected' ? [{ offset, outcome }] : []));
    const cancelled = runWasCancelled(controller.signal, finished, faults);
    // A trial the harness could not run is a row of its own, its fault said; one that never started
    // because the run was cancelled has none: the report lists it as not run.
    if (!cancelled) {
      for (const { offset, outcome } of faults) {
        finished.push(
          harnessFault(testCase, outcome.reason, { agentName, armName, trial: toRun[offset] ?? offset + 1, trials }),
        );
      }
      finished.sort((a, b) => (a.trial ?? 0) - (b.trial ?? 0));
    }
    // Nothing ran before the cancel: a skipped test, whose trials the report lists as not run.
    if (cancelled && finished.length === 0) return context.skip('the run was cancelled first');
    if (finished.length === 0 && faults[0] !== undefined) throw faults[0].outcome.reason;
    const plain = cellVerdict(finished, trials, options.passRule ?? 'majority');
    const verdict =
      options.solutionAgent === undefined ? plain : oracleCellVerdict(agentName, testCase, finished[0], plain);
    await annotateOutcome(context, finished, trials);
    await annotateTrials(context, finished, trials, options.logs);
    // An update judges every suite, those without a baseline file yet too: it writes them one.
    const baseline = data.baseline ?? (options.baselineUpdate === true ? noBaseline(options) : undefined);
    const judged =
      baseline === undefined || options.solutionAgent !== undefined || controller.signal.aborted
        ? verdict
        : await againstBaseline(context, { baseline, column, testCase, finished, trials, options, verdict });
    if (!judged.passed) throw caseFailure(judged.message, data, index);
  };

  return {
    describeOptions,
    runCell: (index, agent, arm, context) => run(index, agent ?? undefined, arm ?? undefined, context),
  };
}

/** The row of a trial that the harness could not run at all (its slot refused, a fault in runCase). */
function harnessFault(
  testCase: Case,
  reason: unknown,
  where: { agentName: string | undefined; armName: string | undefined; trial: number; trials: number },
): TrialResult {
  return {
    id: testCase.id,
    passed: false,
    outcome: 'harnessError',
    durationMs: 0,
    checkResults: testCase.checks.map((check) => ({ ...check, passed: false, skipped: true })),
    error: reason instanceof Error ? reason.message : String(reason),
    failedStep: 'harness',
    ...(where.agentName !== undefined && { agentName: where.agentName }),
    ...(where.armName !== undefined && { arm: where.armName }),
    ...(where.trials > 1 && { trial: where.trial }),
  };
}

function noBaseline(options: WorkerOptions): ModuleBaseline {
  return { passRule: options.passRule ?? 'majority', cells: [] };
}

function findAgent(options: WorkerOptions | undefined, name: string): AgentDefinition | undefined {
  return options?.agents?.find((agent) => agent.name === name);
}

// A worker may run the files of several projects one after another (the gz-bench CLI does not
// isolate them), and projects may ask for different sandboxes.
const sandboxesOfWorker = new Map<WorkerOptions['sandbox'], Promise<ResolvedSandbox>>();

/** The sandbox of this worker's cases, probed once per worker process and mode. */
function workerSandbox(options: WorkerOptions): Promise<ResolvedSandbox> {
  let sandbox = sandboxesOfWorker.get(options.sandbox);
  if (sandbox === undefined) {
    sandbox = resolveSandbox(options.sandbox);
    sandboxesOfWorker.set(options.sandbox, sandbox);
  }
  return sandbox;
}

/**
 * Starts the worker's probes of its sandbox and of what contains its commands, while Vitest is
 * still collecting the suite's tests, rather than in the first case.
 */
function warmUp(options: WorkerOptions): void {
  workerSandbox(options).then(
    (sandbox) => warmUpCommandLaunch(sandbox.kind),
    // The first case awaits the same probe, and fails with its message.
    () => {},
  );
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

/** Removes the case areas this worker's cases left, and says which could not be removed. */
async function removeLeftAreas(): Promise<void> {
  for (const problem of await settleDeferredRemovals()) console.warn(`gz-bench: warning: ${problem}`);
}
