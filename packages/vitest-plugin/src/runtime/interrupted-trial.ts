import type { TrialResult } from './run-trial.js';
import { RunCancelledError } from './slot-client.js';

/**
 * A trial that the run's cancellation (Ctrl-C, SIGTERM) cut short did not finish: its row is not run,
 * so that a resume (`--only-failed`) runs it again, and its error keeps what the interruption did. A
 * trial that passed before it was stopped keeps its result.
 */
export function cutShortByCancel(result: TrialResult): TrialResult {
  // Passed, or already cut short (the run's slots and Vitest both tell of one cancel).
  if (result.passed || result.notRun) return result;
  const how = result.error === undefined ? '' : ` (${result.error})`;
  return {
    ...result,
    passed: false,
    outcome: 'notRun',
    notRun: true,
    error: `the case did not finish: the run was interrupted${how}`,
    failedStep: 'harness',
  };
}

/**
 * Whether the run was cancelled under a cell: Vitest aborted its test, or the run's slots told a
 * trial that waited (it rejected) or ran (it came back not run).
 */
export function runWasCancelled(
  signal: AbortSignal,
  finished: readonly TrialResult[],
  faults: ReadonlyArray<{ outcome: PromiseRejectedResult }>,
): boolean {
  return (
    signal.aborted ||
    finished.some((result) => result.notRun === true) ||
    faults.some(({ outcome }) => outcome.reason instanceof RunCancelledError)
  );
}
