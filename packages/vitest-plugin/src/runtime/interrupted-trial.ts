import type { TrialResult } from './run-trial.js';

/**
 * A trial that the run's cancellation (Ctrl-C, SIGTERM) cut short did not finish: its row is not run,
 * so that a resume (`--only-failed`) runs it again, and its error keeps what the interruption did. A
 * trial that passed before it was stopped keeps its result.
 */
export function cutShortByCancel(result: TrialResult): TrialResult {
  if (result.passed) return result;
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
