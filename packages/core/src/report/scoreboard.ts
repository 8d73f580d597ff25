import { columnName } from '../skills/arm-columns.js';
import { armVerdicts } from '../skills/arm-verdicts.js';
import { type CellRule, cellPasses } from '../stats/cell-rule.js';
import { passRateInterval } from '../stats/clustered-interval.js';
import { median } from '../stats/median.js';
import { pairedComparison } from '../stats/paired-test.js';
import { passAtK, passHatK } from '../stats/pass-at-k.js';
import type { Outcome, ReportResult } from './model.js';
import type {
  AgentScore,
  OutcomeCounts,
  Scoreboard,
  ScoreboardCase,
  ScoreboardCell,
  ScoreboardVerdict,
  UsageTotals,
} from './scoreboard-model.js';

/** Options of `buildScoreboard`. */
export interface ScoreboardOptions {
  /**
   * How a cell's trials decide its verdict.
   * @default 'majority'
   */
  rule?: CellRule;
  /**
   * The name of the agent of rows that name none (a run of the single `cmd`).
   * @default 'agent'
   */
  agentLabel?: string;
  /** The arm every other is compared with. @default 'none', else the first arm */
  baselineArm?: string;
}

const defaultOptions: Required<Omit<ScoreboardOptions, 'baselineArm'>> = { rule: 'majority', agentLabel: 'agent' };

// Every outcome in display order; a record so an outcome added to the model is a type error here.
const OUTCOME_ORDER = {
  passed: 0,
  failed: 0,
  timedOut: 0,
  tampered: 0,
  agentError: 0,
  overBudget: 0,
  harnessError: 0,
  notRun: 0,
} as const satisfies Record<Outcome, 0>;

/** Outcomes that are not answers at all: the agent or the harness could not finish the trial. */
export const ERROR_OUTCOMES = ['agentError', 'harnessError', 'notRun', 'overBudget'] as const satisfies Outcome[];

/** Outcomes of trials that ran and gave a wrong answer. */
export const WRONG_OUTCOMES = ['failed', 'timedOut', 'tampered'] as const satisfies Outcome[];

/**
 * Turns report rows (one per trial) into the scoreboard: a cell per (suite file, suite, case id,
 * agent) with its trials, pass@k, pass^k and verdict by the rule; per agent its pass rate with an
 * interval clustered by case, outcomes, time and usage; and the verdict of the best agent against the
 * runner-up on the cases both ran. Pure: the same rows give the same scoreboard.
 */
export function buildScoreboard(results: readonly ReportResult[], options: ScoreboardOptions = {}): Scoreboard {
  const { rule, agentLabel } = {
    rule: options.rule ?? defaultOptions.rule,
    agentLabel: options.agentLabel ?? defaultOptions.agentLabel,
  };
  const agentOf = (result: ReportResult): string => columnName(result) ?? agentLabel;

  const cases = new Map<string, ScoreboardCase>();
  const agentNames = new Set<string>();
  const trialsOf = new Map<string, Map<string, ReportResult[]>>();
  for (const result of results) {
    const key = caseKey(result);
    if (!cases.has(key)) cases.set(key, { file: result.file, suite: result.suite, id: result.id });
    const agent = agentOf(result);
    agentNames.add(agent);
    let byAgent = trialsOf.get(key);
    if (byAgent === undefined) {
      byAgent = new Map();
      trialsOf.set(key, byAgent);
    }
    const trials = byAgent.get(agent);
    if (trials === undefined) byAgent.set(agent, [result]);
    else trials.push(result);
  }

  const cells: ScoreboardCell[] = [];
  for (const [key, scoreboardCase] of cases) {
    for (const agent of agentNames) {
      const trials = trialsOf.get(key)?.get(agent);
      if (trials !== undefined) cells.push(buildCell(scoreboardCase, agent, trials, rule));
    }
  }

  const agents = [...agentNames].map((name) =>
    buildAgentScore(
      name,
      cells.filter((cell) => cell.agent === name),
      results.filter((result) => agentOf(result) === name),
    ),
  );
  const scoreboard: Scoreboard = {
    rule,
    maxTrials: Math.max(0, ...cells.map((cell) => cell.trials)),
    cases: [...cases.values()],
    agents,
    cells,
  };
  const verdict = buildVerdict(agents, cells);
  if (verdict !== undefined) scoreboard.verdict = verdict;
  const arms = armVerdicts(results, options.baselineArm);
  if (arms.length > 0) scoreboard.arms = arms;
  return scoreboard;
}

/** The key of a case: a file holds one suite, but both are kept so that no two cases can share a key. */
export function caseKey(entry: ScoreboardCase): string {
  return JSON.stringify([entry.file, entry.suite, entry.id]);
}

function buildCell(
  scoreboardCase: ScoreboardCase,
  agent: string,
  trials: readonly ReportResult[],
  rule: CellRule,
): ScoreboardCell {
  const n = trials.length;
  const passes = trials.filter((trial) => trial.passed).length;
  const ks = Array.from({ length: n }, (_, index) => index + 1);
  return {
    ...scoreboardCase,
    agent,
    trials: n,
    passes,
    outcomes: countOutcomes(trials),
    passAt1: passes / n,
    passAtK: ks.map((k) => passAtK(n, passes, k)),
    passHatK: ks.map((k) => passHatK(n, passes, k)),
    flaky: passes > 0 && passes < n,
    passed: cellPasses(passes, n, rule),
    medianDurationMs: medianDuration(trials),
  };
}

function buildAgentScore(name: string, cells: readonly ScoreboardCell[], trials: readonly ReportResult[]): AgentScore {
  const passes = trials.filter((trial) => trial.passed).length;
  const outcomes = countOutcomes(trials);
  const { rate, low, high, effectiveTrials, designEffect } = passRateInterval(cells);
  return {
    name,
    cases: cells.length,
    trials: trials.length,
    passes,
    cellsPassed: cells.filter((cell) => cell.passed).length,
    passRate: rate,
    interval: { low, high, effectiveTrials, designEffect },
    outcomes,
    errors: sumOf(ERROR_OUTCOMES.map((outcome) => outcomes[outcome])),
    wrong: sumOf(WRONG_OUTCOMES.map((outcome) => outcomes[outcome])),
    medianDurationMs: medianDuration(trials),
    usage: totalUsage(trials),
  };
}

/**
 * Ranks the agents by pass rate and tests the leader against the runner-up on the cases both ran. The
 * leader wins only when the paired test is significant and its mean difference favours the leader: a
 * higher pooled rate that the paired cases contradict is no win.
 */
function buildVerdict(agents: readonly AgentScore[], cells: readonly ScoreboardCell[]): ScoreboardVerdict | undefined {
  // Array#sort is stable: agents of equal pass rate keep their order.
  const ranked = [...agents].sort((a, b) => b.passRate - a.passRate);
  const [leader, runnerUp] = ranked;
  if (leader === undefined || runnerUp === undefined) return undefined;
  const talliesOf = (agent: string) =>
    cells.filter((cell) => cell.agent === agent).map((cell) => ({ key: caseKey(cell), ...cell }));
  const comparison = pairedComparison(talliesOf(leader.name), talliesOf(runnerUp.name));
  const verdict: ScoreboardVerdict = {
    ranking: ranked.map((agent) => agent.name),
    leader: leader.name,
    runnerUp: runnerUp.name,
    leaderPassRate: leader.passRate,
    runnerUpPassRate: runnerUp.passRate,
    pairedCases: comparison.cases.length,
    meanDifference: comparison.meanDifference,
    pValue: comparison.pValue,
    method: comparison.method,
  };
  if (comparison.significant && comparison.meanDifference > 0) verdict.winner = leader.name;
  else verdict.withinNoise = true;
  return verdict;
}

function countOutcomes(trials: readonly ReportResult[]): OutcomeCounts {
  const counts: OutcomeCounts = { ...OUTCOME_ORDER };
  for (const trial of trials) counts[trial.outcome] += 1;
  return counts;
}

/** Trials that did not run have no time of their own (their 0 ms would read as a measurement). */
function medianDuration(trials: readonly ReportResult[]): number | null {
  return median(trials.filter((trial) => trial.outcome !== 'notRun').map((trial) => trial.durationMs));
}

function totalUsage(trials: readonly ReportResult[]): UsageTotals {
  const totals: UsageTotals = { trialsWithUsage: 0, costIsEstimate: false, models: [] };
  const models = new Set<string>();
  for (const trial of trials) {
    const usage = trial.agent?.usage;
    if (usage === undefined) continue;
    totals.trialsWithUsage += 1;
    if (usage.inputTokens !== undefined) totals.inputTokens = (totals.inputTokens ?? 0) + usage.inputTokens;
    if (usage.outputTokens !== undefined) totals.outputTokens = (totals.outputTokens ?? 0) + usage.outputTokens;
    if (usage.cachedInputTokens !== undefined) {
      totals.cachedInputTokens = (totals.cachedInputTokens ?? 0) + usage.cachedInputTokens;
    }
    if (usage.costUsd !== undefined) {
      totals.costUsd = (totals.costUsd ?? 0) + usage.costUsd;
      if (usage.costSource === 'agent') totals.costIsEstimate = true;
    }
    if (usage.model !== undefined) models.add(usage.model);
  }
  totals.models = [...models].sort(compareCodeUnits);
  return totals;
}

function sumOf(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

// Code-unit order, not localeCompare: the scoreboard must not depend on the machine's locale.
function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
