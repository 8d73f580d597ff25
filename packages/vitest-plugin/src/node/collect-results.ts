import {
  type CaseMeta,
  type CheckResult,
  caseMeta,
  caseTags,
  notRunResult,
  parseColumn,
  type ReportResult,
  type Suite,
} from '@gz-bench/core';
import type { TestCase, TestModule } from 'vitest/node';
import type {} from '../runtime/define-suite.js';

/** A suite file's latest results and the cells (tests) it holds now. */
export interface ModuleResults {
  /** Suite file relative to the Vitest root. */
  file: string;
  /** The key (`cellKey`) of every test of the module's latest collection, in suite order. */
  cellKeys: string[];
  /** The rows of each cell that ran, or should have: one per trial. */
  results: Map<string, ReportResult[]>;
  /** Why the module failed to load (an invalid suite), if it did. */
  errors: string[];
}

/** What collecting needs besides the module. */
export interface CollectOptions {
  isSuiteFile: (file: string) => boolean;
  /** Why a trial that Vitest left pending has no result, for its row. */
  notRunReason: string;
  /** The suite as the run found it, for the checks of cases that did not run. */
  suite?: Suite | undefined;
  /** Trials of each cell in this run. @default 1 */
  trials?: number;
  /** Whether the suite's describe blocks name agents, arms or both (`agent/arm`). @default agents alone */
  columns?: { agents: boolean; arms: boolean };
}

/**
 * The key of one (column, case) cell of a suite file: the column (`columnName`) names its agent and
 * arm, and is undefined for the run's one `cmd` without arms.
 */
export function cellKey(column: string | undefined, caseId: string): string {
  return JSON.stringify([column ?? null, caseId]);
}

/** The tags and metadata a case's report rows carry, from the suite as the run found it. */
export function caseLabels(suite: Suite | undefined, caseId: string): { tags?: string[]; meta?: CaseMeta } {
  const testCase = suite?.cases.find((planned) => planned.id === caseId);
  if (suite === undefined || testCase === undefined) return {};
  const tags = caseTags(suite, testCase);
  const meta = caseMeta(suite, testCase);
  return { ...(tags.length > 0 && { tags }), ...(meta !== undefined && { meta }) };
}

/**
 * Reads the gz-bench results of one suite module's tests from their serializable `meta()`; undefined
 * for the project's other test modules. A trial that was meant to run but has no result (its worker
 * died, the run was cancelled first) gets a not-run row; a deselected test (`-t`, `file:line`) none.
 */
export function collectModuleResults(module: TestModule, options: CollectOptions): ModuleResults | undefined {
  const tests = [...module.children.allTests()];
  const ours = options.isSuiteFile(module.moduleId) || tests.some((test) => test.meta().gzBenchSuite !== undefined);
  if (!ours) return undefined;
  const results = new Map<string, ReportResult[]>();
  const cellKeys: string[] = [];
  for (const testCase of tests) {
    const key = cellKey(cellOf(testCase).column, testCase.name);
    cellKeys.push(key);
    const rows = rowsOf(testCase, module.relativeModuleId, options);
    if (rows) results.set(key, rows);
  }
  const errors = module.errors().map((error) => error.message);
  return { file: module.relativeModuleId, cellKeys, results, errors };
}

/** The suite and column of a test: `describe(suite) > test`, or `describe(suite) > describe(column) > test`. */
function cellOf(testCase: TestCase): { suite: string; column: string | undefined } {
  const parent = testCase.parent;
  if (parent.type !== 'suite') return { suite: '', column: undefined };
  if (parent.parent.type === 'suite') return { suite: parent.parent.name, column: parent.name };
  return { suite: parent.name, column: undefined };
}

function rowsOf(testCase: TestCase, file: string, options: CollectOptions): ReportResult[] | undefined {
  const outcome = testCase.result();
  const { suite, column } = cellOf(testCase);
  const { agentName, arm } = parseColumn(column, options.columns ?? { agents: true, arms: false });
  const trials = options.trials ?? 1;
  const finished = testCase.meta().gzBenchTrials ?? [];
  const labels = caseLabels(options.suite, testCase.name);
  const label = (trial: number) => ({
    ...(agentName !== undefined && { agentName }),
    ...(arm !== undefined && { arm }),
    ...(trials > 1 && { trial }),
    ...labels,
  });
  const missing = (): number[] =>
    Array.from({ length: trials }, (_, offset) => offset + 1).filter(
      (trial) => !finished.some((result) => (result.trial ?? 1) === trial),
    );
  const checks = options.suite?.cases.find((planned) => planned.id === testCase.name)?.checks ?? [];
  const notRun = (trial: number): ReportResult => ({
    ...notRunResult({ file, suite, id: testCase.name, checks }, options.notRunReason),
    ...label(trial),
  });
  // A cell cancelled mid-run counts as skipped in Vitest, yet its trials ran: their results say how
  // far they got, and the trials that never started did not run.
  if (finished.length > 0) {
    // The cell's judgement against its baseline goes on each of its trials' rows.
    const judged = testCase.meta().gzBenchBaseline;
    const baseline = judged === undefined ? {} : { baseline: judged };
    return [
      ...finished.map((result) => ({ ...result, suite, file, ...labels, ...baseline })),
      ...missing().map(notRun),
    ].sort((a, b) => (a.trial ?? 1) - (b.trial ?? 1));
  }
  // Deselected on purpose (`-t`, `file:line`): Vitest set the test's mode to skip before the run.
  if (outcome.state === 'skipped' && testCase.options.mode !== 'run') return undefined;
  // Meant to run, yet never reached: the worker died (pending) or the run was cancelled (skipped).
  if (outcome.state === 'pending' || outcome.state === 'skipped') return missing().map(notRun);
  // The test ended without a result (the runner's own timeout, or a fault before any trial ran):
  // each trial's row fails with Vitest's error, so nothing that ran goes missing from the report.
  const error = outcome.errors?.[0]?.message ?? 'the case ended without a result';
  const checkResults: CheckResult[] = [];
  return missing().map((trial) => ({
    id: testCase.name,
    suite,
    file,
    passed: false,
    outcome: 'harnessError',
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    checkResults,
    error,
    failedStep: 'harness',
    ...label(trial),
  }));
}
