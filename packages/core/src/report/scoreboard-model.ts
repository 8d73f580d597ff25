import type { ArmVerdict } from '../skills/arm-verdicts.js';
import type { CellRule } from '../stats/cell-rule.js';
import type { Outcome } from './model.js';

/** How many trials ended in each outcome; every outcome is present, 0 when none did. */
export type OutcomeCounts = Record<Outcome, number>;

/** A case of the scoreboard: a row of its grid. */
export interface ScoreboardCase {
  /** The suite file, relative to the Vitest root. */
  file: string;
  suite: string;
  id: string;
}

/** One (case, agent) cell: the trials one agent ran of one case. */
export interface ScoreboardCell extends ScoreboardCase {
  agent: string;
  trials: number;
  passes: number;
  outcomes: OutcomeCounts;
  /** passes / trials. */
  passAt1: number;
  /** The unbiased pass@k' estimate for k' = 1 … trials: `passAtK[k' − 1]`. */
  passAtK: number[];
  /** The unbiased pass^k' estimate (all of k' trials pass) for k' = 1 … trials: `passHatK[k' − 1]`. */
  passHatK: number[];
  /** Some trials passed and some did not. */
  flaky: boolean;
  /** The cell's verdict by the scoreboard's rule. */
  passed: boolean;
  /** Median duration of the trials that ran; null when none ran. */
  medianDurationMs: number | null;
}

/** What an agent's trials reported of their usage, summed; a field is absent when no trial reported it. */
export interface UsageTotals {
  /** Trials that reported any usage. */
  trialsWithUsage: number;
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  costUsd?: number;
  /** Some of `costUsd` is the agent's own estimate, not a bill. */
  costIsEstimate: boolean;
  /** The models that served the trials, as the agents reported them, sorted. */
  models: string[];
}

/** One agent over all its cases and trials. */
export interface AgentScore {
  name: string;
  cases: number;
  trials: number;
  passes: number;
  /** Cells whose verdict passed by the rule. */
  cellsPassed: number;
  /** passes / trials, every trial counted (an error is not a pass). */
  passRate: number;
  /** The 95 % interval of `passRate`, clustered by case. */
  interval: { low: number; high: number; effectiveTrials: number; designEffect: number };
  outcomes: OutcomeCounts;
  /** Trials that ended in an error: agentError + harnessError + notRun + overBudget. */
  errors: number;
  /** Trials that ran and gave a wrong answer: failed + timedOut + tampered. */
  wrong: number;
  /** Median duration of its trials that ran; null when none ran. */
  medianDurationMs: number | null;
  usage: UsageTotals;
}

/** Who leads, and whether the lead is more than noise. Absent with fewer than two agents. */
export interface ScoreboardVerdict {
  /** Agent names by pass rate, best first (ties keep the agents' order). */
  ranking: string[];
  leader: string;
  runnerUp: string;
  leaderPassRate: number;
  runnerUpPassRate: number;
  /** Cases both ran. */
  pairedCases: number;
  /** Mean over the paired cases of the leader's pass rate minus the runner-up's. */
  meanDifference: number;
  /** Two-sided p-value of the paired sign-flip test. */
  pValue: number;
  method: 'exact' | 'monteCarlo';
  /** The leader, when the paired test finds it better (p < 0.05). */
  winner?: string;
  /** Present when the paired test does not find the leader better. */
  withinNoise?: true;
}

/** The comparison of agents × cases × trials: serialisable, everything the renderers show. */
export interface Scoreboard {
  /** The rule cell verdicts were decided by. */
  rule: CellRule;
  /** The most trials of any cell. */
  maxTrials: number;
  /** Cases in report order. */
  cases: ScoreboardCase[];
  /** Agents in the order they first appear in the report. */
  agents: AgentScore[];
  /** One per (case, agent) that has trials, cases in report order, then agents in their order. */
  cells: ScoreboardCell[];
  verdict?: ScoreboardVerdict;
  /** Each skill arm of each agent against the baseline arm, when the run names arms. */
  arms?: ArmVerdict[];
}
