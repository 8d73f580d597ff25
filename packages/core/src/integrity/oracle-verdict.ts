import type { ReportResult } from '../report/model.js';

/** The names of the two agents of an oracle run (gz-bench check-suite). */
export const ORACLE_AGENTS = { noOp: 'no-op', solution: 'solution' } as const;

/** A case of a suite, as the oracle verdict needs it. */
export interface OracleCase {
  /** The suite file, named as the report names it. */
  file: string;
  id: string;
  hasSolution: boolean;
}

/** A case whose checks do not tell a solved case from an unsolved one, and why. */
export interface OracleProblem {
  file: string;
  id: string;
  /** `passes with a no-op agent`, `fails with its own solution: …`, `no solution`, or `did not run: …`. */
  problems: string[];
}

/**
 * Which cases do not discriminate, from the results of a run with the no-op agent and the solution
 * agent: a case must fail with the first and pass with the second, and must have a solution to try.
 * A case that has no result of either run is reported as not run. In the order of `cases`.
 */
export function oracleProblems(cases: readonly OracleCase[], results: readonly ReportResult[]): OracleProblem[] {
  const byCell = new Map<string, ReportResult>();
  for (const result of results) byCell.set(cellKey(result.file, result.id, result.agentName), result);
  const found: OracleProblem[] = [];
  for (const testCase of cases) {
    const problems: string[] = [];
    const noOp = byCell.get(cellKey(testCase.file, testCase.id, ORACLE_AGENTS.noOp));
    const noOpProblem = noOpVerdict(noOp);
    if (noOpProblem !== undefined) problems.push(noOpProblem);
    if (!testCase.hasSolution) problems.push('no solution');
    else {
      const solved = byCell.get(cellKey(testCase.file, testCase.id, ORACLE_AGENTS.solution));
      if (solved === undefined || solved.notRun) problems.push(`did not run: ${solved?.error ?? 'no result'}`);
      else if (!solved.passed) problems.push(`fails with its own solution: ${solved.error ?? 'failed'}`);
    }
    if (problems.length > 0) found.push({ file: testCase.file, id: testCase.id, problems });
  }
  return found;
}

/**
 * Why a no-op agent's result does not prove that the checks can fail, or undefined when it does: it
 * must fail at a check, not before (a setup or harness fault proves nothing of the checks).
 */
export function noOpVerdict(
  result: Pick<ReportResult, 'passed' | 'failedStep' | 'error' | 'notRun'> | undefined,
): string | undefined {
  if (result === undefined || result.notRun) return `did not run: ${result?.error ?? 'no result'}`;
  if (result.passed) return 'passes with a no-op agent';
  if (result.failedStep !== 'check') return `fails with a no-op agent before its checks: ${result.error ?? 'failed'}`;
  return undefined;
}

function cellKey(file: string, id: string, agent: string | undefined): string {
  return JSON.stringify([file, id, agent ?? null]);
}
