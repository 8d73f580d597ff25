import { type CellRule, cellPasses, describeCellRule } from '@gz-bench/core/run';
import type { TrialResult } from './run-trial.js';

// Enough of the failed trials' errors to see the pattern; the report holds every one.
const ERRORS_SHOWN = 3;

/**
 * Whether a cell's test passes: its one trial's result, or, with several, the share of its planned
 * trials that passed against the rule (a trial with no result counts as not passed). The message
 * says why a cell failed.
 */
export function cellVerdict(
  results: readonly TrialResult[],
  trials: number,
  rule: CellRule,
): { passed: boolean; message: string } {
  const passes = results.filter((result) => result.passed).length;
  if (trials === 1) {
    const only = results[0];
    return { passed: only?.passed === true, message: only?.error ?? 'case failed' };
  }
  const failed = results.filter((result) => !result.passed);
  const shown = failed
    .slice(0, ERRORS_SHOWN)
    .map((result) => `trial ${result.trial}: ${result.error ?? result.outcome}`)
    .join('; ');
  const more = failed.length > ERRORS_SHOWN ? `; ${failed.length - ERRORS_SHOWN} more` : '';
  return {
    passed: cellPasses(passes, trials, rule),
    message: `${passes} of ${trials} trials passed, and the cell passes when ${describeCellRule(rule)}: ${shown}${more}`,
  };
}
