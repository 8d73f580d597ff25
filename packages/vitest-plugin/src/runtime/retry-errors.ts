import type { Outcome, RetriedError } from '@gz-bench/core/run';
import type { TrialResult } from './run-trial.js';

/** Outcomes that say the trial never got a fair go (a rate limit, a crash), not that the agent was wrong. */
const RETRIED: ReadonlySet<Outcome> = new Set(['agentError', 'harnessError']);

/**
 * Runs a trial, and again, up to `retries` more times, while it ends in an agent or harness error;
 * never after an honest failure (`failed`, `timedOut`, `tampered`, `overBudget`), and not once the run
 * is cancelled. A trial that ran more than once records its attempts and the earlier errors.
 */
export async function withErrorRetries(
  run: () => Promise<TrialResult>,
  retries: number,
  signal: AbortSignal,
): Promise<TrialResult> {
  const earlier: RetriedError[] = [];
  for (;;) {
    const last = earlier.length >= retries || signal.aborted;
    let result: TrialResult;
    try {
      result = await run();
    } catch (error) {
      // A trial the harness could not run at all is a harness error too; rethrown once retries are spent.
      if (last || signal.aborted) throw error;
      earlier.push({ outcome: 'harnessError', error: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (last || signal.aborted || !RETRIED.has(result.outcome)) {
      return earlier.length === 0 ? result : { ...result, attempts: earlier.length + 1, retriedErrors: earlier };
    }
    earlier.push({ outcome: result.outcome, ...(result.error !== undefined && { error: result.error }) });
  }
}
