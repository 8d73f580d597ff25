import { type Case, noOpVerdict, ORACLE_AGENTS } from '@gz-bench/core/run';
import type { TrialResult } from './run-trial.js';

/**
 * The test verdict of a cell when the run proves the checks (`checkSuite`): the no-op agent's cell
 * passes when the case fails at a check, the solution's when the case passes with its solution. Cells
 * of any other agent keep the plain verdict.
 */
export function oracleCellVerdict(
  agentName: string | undefined,
  testCase: Case,
  result: TrialResult | undefined,
  plain: { passed: boolean; message: string },
): { passed: boolean; message: string } {
  if (agentName === ORACLE_AGENTS.noOp) {
    const problem = noOpVerdict(result);
    return problem === undefined ? { passed: true, message: '' } : { passed: false, message: problem };
  }
  if (agentName !== ORACLE_AGENTS.solution) return plain;
  if (testCase.solution === undefined || testCase.solution.length === 0)
    return { passed: false, message: 'no solution' };
  return plain.passed ? plain : { passed: false, message: `fails with its own solution: ${plain.message}` };
}
