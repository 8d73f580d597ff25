import { describeCellRule } from '../stats/cell-rule.js';
import type { Outcome } from './model.js';
import { formatDuration, singleLine } from './rows.js';
import { ERROR_OUTCOMES, WRONG_OUTCOMES } from './scoreboard.js';
import type { AgentScore, Scoreboard, ScoreboardCell, ScoreboardVerdict } from './scoreboard-model.js';

// The plain text of the scoreboard that the terminal and markdown renderers share; each renderer pads
// or escapes it in its own way.

/** Marks a cell whose trials did not all end alike: some passed, some did not. */
export const FLAKY_MARK = '~';
/** Marks a cell with a trial that ended in an error rather than an answer. */
export const ERROR_MARK = '!';
/** Follows a cost that is the agent's own estimate. */
export const ESTIMATE_NOTE = '(est.)';

/** The columns of the per-agent table, in display order. */
export const AGENT_HEADERS = [
  'agent',
  'score',
  '95% interval',
  'cells',
  'median',
  'tokens in/out',
  'cached',
  'cost',
  'failed',
  'errors',
  'model',
] as const;

// How a count of each outcome reads: `1 agent error`, `2 agent errors`, `2 timed out`.
const OUTCOME_WORDS: Record<Outcome, [one: string, many: string]> = {
  passed: ['passed', 'passed'],
  failed: ['failed', 'failed'],
  timedOut: ['timed out', 'timed out'],
  tampered: ['tampered', 'tampered'],
  agentError: ['agent error', 'agent errors'],
  overBudget: ['over budget', 'over budget'],
  harnessError: ['harness error', 'harness errors'],
  notRun: ['not run', 'not run'],
};

/** The agents best first, as the verdict ranks them (the agents' own order without a verdict). */
export function rankedAgents(scoreboard: Scoreboard): AgentScore[] {
  const ranking = scoreboard.verdict?.ranking;
  if (ranking === undefined) return scoreboard.agents;
  return ranking.flatMap((name) => scoreboard.agents.filter((agent) => agent.name === name));
}

/** The per-agent table's row of an agent, one string per column of `AGENT_HEADERS`. */
export function agentCells(agent: AgentScore): string[] {
  const { usage } = agent;
  const tokens =
    usage.inputTokens === undefined && usage.outputTokens === undefined
      ? '-'
      : `${formatCount(usage.inputTokens)}/${formatCount(usage.outputTokens)}`;
  return [
    agentLabel(agent.name),
    formatPercent(agent.passRate),
    `${formatPercent(agent.interval.low, false)}–${formatPercent(agent.interval.high)}`,
    `${agent.cellsPassed}/${agent.cases}`,
    formatMedian(agent.medianDurationMs),
    tokens,
    formatCount(usage.cachedInputTokens),
    usage.costUsd === undefined
      ? '-'
      : `${formatCost(usage.costUsd)}${usage.costIsEstimate ? ` ${ESTIMATE_NOTE}` : ''}`,
    withBreakdown(agent.wrong, agent, WRONG_OUTCOMES, 'failed'),
    withBreakdown(agent.errors, agent, ERROR_OUTCOMES),
    usage.models.length === 0 ? '-' : singleLine(usage.models.join(', ')),
  ];
}

/** A grid cell's count and marks, e.g. `3/5~!`; `-` for a case the agent did not run. */
export function cellCount(cell: ScoreboardCell | undefined): string {
  if (cell === undefined) return '-';
  const flaky = cell.flaky ? FLAKY_MARK : '';
  const errored =
    cell.outcomes.agentError + cell.outcomes.harnessError + cell.outcomes.notRun + cell.outcomes.overBudget;
  return `${cell.passes}/${cell.trials}${flaky}${errored > 0 ? ERROR_MARK : ''}`;
}

/** A grid cell's median time, `-` when none of its trials ran. */
export function cellTime(cell: ScoreboardCell | undefined): string {
  return cell === undefined ? '' : formatMedian(cell.medianDurationMs);
}

/**
 * The verdict as a headline and its evidence: `a leads b` and `80% vs 40%, p = 0.031 on 10 paired
 * cases` when the difference is significant, `within noise` and `a 80% vs b 75%, p = 0.41 on 10
 * paired cases` otherwise.
 */
export function verdictParts(verdict: ScoreboardVerdict): [headline: string, evidence: string] {
  const leader = agentLabel(verdict.leader);
  const runnerUp = agentLabel(verdict.runnerUp);
  const [leaderRate, runnerUpRate] = [formatPercent(verdict.leaderPassRate), formatPercent(verdict.runnerUpPassRate)];
  const test =
    verdict.pairedCases === 0
      ? 'no case was run by both'
      : `${formatPValue(verdict.pValue)} on ${verdict.pairedCases} paired ${verdict.pairedCases === 1 ? 'case' : 'cases'}`;
  if (verdict.winner !== undefined) return [`${leader} leads ${runnerUp}`, `${leaderRate} vs ${runnerUpRate}, ${test}`];
  return ['within noise', `${leader} ${leaderRate} vs ${runnerUp} ${runnerUpRate}, ${test}`];
}

/** What decides a cell's verdict, e.g. `a cell passes when more than half of its trials pass`. */
export function ruleSentence(scoreboard: Scoreboard): string {
  return `a cell passes when ${describeCellRule(scoreboard.rule)}`;
}

/** What the marks mean. */
export const MARK_LEGEND = {
  flaky: 'flaky: some trials passed, some did not',
  error: 'a trial ended in an error, not an answer',
  estimate: "the agent's own estimate of its cost",
} as const;

/** Whether any agent's cost is its own estimate, so the legend explains the note. */
export function hasEstimate(scoreboard: Scoreboard): boolean {
  return scoreboard.agents.some((agent) => agent.usage.costUsd !== undefined && agent.usage.costIsEstimate);
}

/** An agent's name on one line. */
export function agentLabel(name: string): string {
  return singleLine(name);
}

/**
 * A share as a whole percentage. Only a share of exactly 0 or 1 reads 0 % or 100 %: 0.996 is 99 %, so
 * an agent that failed a trial never shows a perfect score.
 */
export function formatPercent(share: number, sign = true): string {
  let percent = Math.round(share * 100);
  if (share > 0 && percent === 0) percent = 1;
  if (share < 1 && percent === 100) percent = 99;
  return sign ? `${percent}%` : `${percent}`;
}

/** A p-value to two significant digits, `p < 0.001` below that. */
export function formatPValue(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${Number(p.toPrecision(2))}`;
}

/** A count of tokens: whole below 10,000, then `12.3k`, `4.56M`; `-` when not reported. */
export function formatCount(count: number | undefined): string {
  if (count === undefined) return '-';
  if (count < 10_000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}

/** A cost in US dollars: cents from $1 on, four decimals below. */
export function formatCost(costUsd: number): string {
  return costUsd >= 1 ? `$${costUsd.toFixed(2)}` : `$${costUsd.toFixed(4)}`;
}

function formatMedian(durationMs: number | null): string {
  return durationMs === null ? '-' : formatDuration(durationMs);
}

/**
 * `3`, `1 agent error`, or `3 (1 timed out)`: the total and the outcomes that make it up, but the one
 * named `plain` (wrong answers are failed checks unless said otherwise).
 */
function withBreakdown(total: number, agent: AgentScore, outcomes: readonly Outcome[], plain?: Outcome): string {
  const present = outcomes.filter((outcome) => agent.outcomes[outcome] > 0);
  const counted = (outcome: Outcome): string => {
    const count = agent.outcomes[outcome];
    return `${count} ${OUTCOME_WORDS[outcome][count === 1 ? 0 : 1]}`;
  };
  const [only] = present;
  if (present.length === 1 && only !== undefined && only !== plain) return counted(only);
  const parts = present.filter((outcome) => outcome !== plain).map(counted);
  return parts.length === 0 ? String(total) : `${total} (${parts.join(', ')})`;
}
