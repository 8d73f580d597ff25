import { cellChange } from '../stats/cell-change.js';
import { type CellRule, cellPasses } from '../stats/cell-rule.js';
import type { CaseTally } from '../stats/counts.js';
import type { BaselineEntry } from './baseline-file.js';

/**
 * What a cell's result means against its baseline entry:
 * - `regression`: it passes less often, significantly (with one trial on both sides, any pass → fail);
 * - `improvement`: it passes more often, likewise: the baseline is stale until updated;
 * - `knownFailure`: it failed in the baseline and still fails;
 * - `same`: within noise of the baseline;
 * - `new`: the baseline has no entry for it.
 */
export type BaselineVerdict = 'regression' | 'improvement' | 'knownFailure' | 'same' | 'new';

/** A cell judged against its baseline: the report row's `baseline`. */
export interface BaselineJudgement {
  verdict: BaselineVerdict;
  /** The baseline's tally of the cell; absent for a new cell. */
  passes?: number;
  trials?: number;
  /** The one-sided p-value behind a regression or an improvement of cells with several trials. */
  p?: number;
}

/** A judgement, and whether the cell's test passes by it. */
export interface CellJudgement {
  judgement: BaselineJudgement;
  /** The test passes: no regression, and a new cell passes by its own rule. */
  passed: boolean;
  /** Why, in a line: the test's failure message, or the annotation of a pass the baseline excuses. */
  message: string | undefined;
}

/**
 * Judges a cell's tally of this run against its baseline entry. A known failure and a result within
 * noise of the baseline pass; only a regression fails, and a cell without an entry is judged by its
 * own rule, as without a baseline. `baseRule` is the rule the baseline was written with.
 */
export function judgeCell(
  entry: BaselineEntry | undefined,
  head: CaseTally,
  rules: { rule: CellRule; baseRule: CellRule },
): CellJudgement {
  const headPasses = cellPasses(head.passes, head.trials, rules.rule);
  if (entry === undefined) {
    return { judgement: { verdict: 'new' }, passed: headPasses, message: undefined };
  }
  const base = { passes: entry.passes, trials: entry.trials };
  const change = cellChange(base, head);
  const shown = `${tally(base)} → ${tally(head)}`;
  const tested = change.method === 'fisherMidP';
  if (change.verdict === 'regression') {
    return {
      judgement: { verdict: 'regression', ...base, ...(tested && { p: change.pWorse }) },
      passed: false,
      message: `regressed against the baseline: ${shown}${tested ? ` (p = ${formatP(change.pWorse)})` : ''}`,
    };
  }
  if (change.verdict === 'improvement') {
    return {
      judgement: { verdict: 'improvement', ...base, ...(tested && { p: change.pBetter }) },
      passed: true,
      message: `improved on the baseline: ${shown}${tested ? ` (p = ${formatP(change.pBetter)})` : ''}; update it with -u`,
    };
  }
  const basePassed = cellPasses(base.passes, base.trials, rules.baseRule);
  if (!basePassed && !headPasses) {
    return { judgement: { verdict: 'knownFailure', ...base }, passed: true, message: `known failure: ${shown}` };
  }
  const message = headPasses ? undefined : `fails by its rule, but within noise of the baseline: ${shown}`;
  return { judgement: { verdict: 'same', ...base }, passed: true, message };
}

function tally({ passes, trials }: CaseTally): string {
  return `${passes}/${trials}`;
}

/** Two significant digits, never in exponent form for the p-values a test of a few trials gives. */
export function formatP(p: number): string {
  if (p < 0.001) return '< 0.001';
  return String(Number(p.toPrecision(2)));
}
