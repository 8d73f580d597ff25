import { type CheckResult, notRunResult, type ReportResult, type Suite } from '@gz-bench/core';
import type { TestCase, TestModule } from 'vitest/node';
import type {} from '../runtime/define-suite.js';

/** A suite file's latest results and the case ids it holds now. */
export interface ModuleResults {
  /** Suite file relative to the Vitest root. */
  file: string;
  /** Every case id of the module's latest collection, in suite order. */
  caseIds: string[];
  /** Results of the cases that ran, or should have, by case id. */
  results: Map<string, ReportResult>;
  /** Why the module failed to load (an invalid suite), if it did. */
  errors: string[];
}

/** What collecting needs besides the module. */
export interface CollectOptions {
  isSuiteFile: (file: string) => boolean;
  /** Why a case that Vitest left pending has no result, for its row. */
  notRunReason: string;
  /** The suite as the run found it, for the checks of cases that did not run. */
  suite?: Suite | undefined;
}

/**
 * Reads the gz-bench results of one suite module's tests from their serializable `meta()`; undefined
 * for the project's other test modules. A test that was meant to run but has no result (its worker
 * died, the run was cancelled first) gets a not-run row; a deselected one (`-t`, `file:line`) none.
 */
export function collectModuleResults(module: TestModule, options: CollectOptions): ModuleResults | undefined {
  const tests = [...module.children.allTests()];
  const ours = options.isSuiteFile(module.moduleId) || tests.some((test) => test.meta().gzBenchSuite !== undefined);
  if (!ours) return undefined;
  const results = new Map<string, ReportResult>();
  for (const testCase of tests) {
    const result = resultOf(testCase, module.relativeModuleId, options);
    if (result) results.set(testCase.name, result);
  }
  const errors = module.errors().map((error) => error.message);
  return { file: module.relativeModuleId, caseIds: tests.map((test) => test.name), results, errors };
}

function resultOf(testCase: TestCase, file: string, options: CollectOptions): ReportResult | undefined {
  const outcome = testCase.result();
  const suite = testCase.parent.type === 'suite' ? testCase.parent.name : '';
  const meta = testCase.meta().gzBench;
  // A case cancelled mid-run counts as skipped in Vitest, yet it ran: its result says how far it got.
  if (meta) return { ...meta, suite, file };
  // Deselected on purpose (`-t`, `file:line`): Vitest set the test's mode to skip before the run.
  if (outcome.state === 'skipped' && testCase.options.mode !== 'run') return undefined;
  // Meant to run, yet never reached: the worker died (pending) or the run was cancelled (skipped).
  if (outcome.state === 'pending' || outcome.state === 'skipped') {
    const checks = options.suite?.cases.find((planned) => planned.id === testCase.name)?.checks ?? [];
    return notRunResult({ file, suite, id: testCase.name, checks }, options.notRunReason);
  }
  // The test ended without a case result (the runner's own timeout, or a fault before the case ran):
  // report it as failed with Vitest's error, so nothing that ran goes missing from the report.
  const error = outcome.errors?.[0]?.message ?? 'the case ended without a result';
  const checkResults: CheckResult[] = [];
  return {
    id: testCase.name,
    suite,
    file,
    passed: false,
    outcome: 'harnessError',
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    checkResults,
    error,
    failedStep: 'harness',
  };
}
