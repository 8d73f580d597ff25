import type { TestContext } from 'vitest';
import type { TrialResult } from './run-trial.js';
import { safeAnnotate } from './safe-annotate.js';

/** The annotation type that carries a cell's outcomes; Vitest's junit reporter writes it as a `<property>`. */
export const OUTCOME_ANNOTATION = 'gz-bench.outcome';

/**
 * Records how the cell's trials ended on its test (`failed`; `2/3 passed: passed, failed, agentError`
 * with trials), so that reports which know nothing of gz-bench — JUnit in CI — still tell a wrong
 * answer from an agent that crashed. It travels in the test's annotations, which blob reports keep.
 */
export async function annotateOutcome(
  context: TestContext,
  finished: readonly TrialResult[],
  trials: number,
): Promise<void> {
  const outcomes = finished.map((result) => result.outcome);
  const passes = finished.filter((result) => result.passed).length;
  const message = trials === 1 ? (outcomes[0] ?? 'notRun') : `${passes}/${trials} passed: ${outcomes.join(', ')}`;
  // Best effort: the report holds the same, and an annotation the runner refuses (Vitest 4.1 does on
  // a repeated test) must not fail the case.
  await safeAnnotate(context, message, OUTCOME_ANNOTATION);
}
