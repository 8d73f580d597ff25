import type { Outcome } from '../report/model.js';
import type { CellChange } from '../stats/cell-change.js';
import type { CellRule } from '../stats/cell-rule.js';

/** Outcomes that are errors rather than answers, counted apart on each side of a comparison. */
export type ErrorOutcome = Extract<Outcome, 'agentError' | 'harnessError' | 'timedOut' | 'overBudget' | 'notRun'>;

/** How many trials of one side ended in each error outcome; every outcome is present. */
export type ErrorCounts = Record<ErrorOutcome, number>;

/** What names a cell: one agent's trials of one case. */
export interface CellName {
  /** The suite file, relative to the Vitest root. */
  file: string;
  suite: string;
  id: string;
  agent: string;
}

/** One side's trials of a cell. Trials that did not run are counted apart, never as failures. */
export interface CellTally {
  /** Trials that ran. */
  trials: number;
  passes: number;
  /** Trials that were planned and did not run. */
  notRun: number;
  /** The cell's verdict by its report's pass rule; null when no trial ran. */
  passed: boolean | null;
}

/** A cell in both runs. */
export interface ComparedCell extends CellName {
  base: CellTally;
  head: CellTally;
  /** The cell's change by `cellChange`; null when a side has no trial that ran. */
  change: CellChange | null;
  /** The cell verdict flipped: `passToFail` or `failToPass` by each side's rule; null when it did not. */
  flip: 'passToFail' | 'failToPass' | null;
}

/** A cell of only one run: new in head, or removed from base. */
export interface OneSidedCell extends CellName {
  tally: CellTally;
}

/** Sums over one side's trials that ran; a usage field is absent when no trial reported it. */
export interface SideTotals {
  /** Trials that ran. */
  trials: number;
  passes: number;
  /** Summed duration of the trials that ran. */
  durationMs: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** Some of `costUsd` is the agent's own estimate, not a bill. */
  costIsEstimate: boolean;
}

/** One number on both sides; `delta` is head − base, absent when a side lacks it. */
export interface Delta {
  base?: number;
  head?: number;
  delta?: number;
}

/** Base, head and their differences for duration, tokens and cost. */
export interface Deltas {
  durationMs: Delta;
  inputTokens: Delta;
  outputTokens: Delta;
  costUsd: Delta;
  /** A cost on either side is (partly) the agent's own estimate. */
  costIsEstimate: boolean;
}

/** The plain verdict of a comparison. */
export type ComparisonVerdict = 'regression' | 'improvement' | 'within noise';

/** The paired test of head against base over the cases both ran, one agent at a time. */
export interface PairedTest {
  /** Cases both runs ran. */
  cases: number;
  /** Mean over those cases of head's pass rate minus base's. */
  meanDifference: number;
  /** Two-sided p-value of the sign-flip test; with one trial per cell it is McNemar's exact test. */
  pValue: number;
  method: 'exact' | 'monteCarlo';
  significant: boolean;
}

/** One agent's comparison. */
export interface AgentComparison {
  name: string;
  base: SideTotals;
  head: SideTotals;
  deltas: Deltas;
  paired: PairedTest;
  /** Cells whose change is a regression, an improvement, or moved within noise (pass rate changed, verdict unchanged). */
  regressions: number;
  improvements: number;
  withinNoise: number;
  verdict: ComparisonVerdict;
  /** Why, in one sentence, e.g. `regression: fix-bug (claude) 3/3 → 0/3, p = 0.025`. */
  reason: string;
}

/** One side of the comparison: the report file and what it holds. */
export interface ComparisonSide {
  /** The report's path as the user gave it. */
  path: string;
  /** The pass rule its cell verdicts were decided by (the report's, else majority). */
  rule: CellRule;
  totals: SideTotals;
  errors: ErrorCounts;
}

/** The comparison of a head run with a base run: serialisable, everything the renderers show. */
export interface Comparison {
  base: ComparisonSide;
  head: ComparisonSide;
  /** Cells in both runs, in head's order. */
  cells: ComparedCell[];
  /** Cells only in head, in its order. */
  newCells: OneSidedCell[];
  /** Cells only in base, in its order. */
  removedCells: OneSidedCell[];
  deltas: Deltas;
  /** Agents in the order they first appear (head's, then base's), with at least one cell in both runs. */
  agents: AgentComparison[];
  verdict: ComparisonVerdict;
  /** The agents' reasons, or why there is nothing to compare. */
  reason: string;
}
