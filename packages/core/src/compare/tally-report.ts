import { OUTCOMES, type Outcome } from '../report/model.js';
import { columnName } from '../skills/arm-columns.js';
import { type CellRule, cellPasses } from '../stats/cell-rule.js';
import type { CellName, CellTally, ErrorCounts, ErrorOutcome, SideTotals } from './model.js';
import type { ComparedRow } from './report-schema.js';

/** The agent of rows that name none (a run of the single `cmd`), as the scoreboard calls it. */
export const UNNAMED_AGENT = 'agent';

const ERROR_OUTCOMES = {
  agentError: true,
  harnessError: true,
  timedOut: true,
  overBudget: true,
  notRun: true,
} as const satisfies Record<ErrorOutcome, true>;

const KNOWN_OUTCOMES = new Set<string>(OUTCOMES);

/** One side's cells and sums, in one pass over its rows. */
export interface SideTally {
  /** Cells by key, in the order their first row appears. */
  cells: Map<string, CellName & CellTally>;
  totals: SideTotals;
  errors: ErrorCounts;
  /** Sums per agent, in the order the agents first appear. */
  agents: Map<string, SideTotals>;
}

/** The key that pairs a cell across two reports: suite file, case id and agent. */
export function cellKey(name: Pick<CellName, 'file' | 'id' | 'agent'>): string {
  return JSON.stringify([name.file, name.id, name.agent]);
}

/**
 * Tallies a report's rows by cell: trials that ran and their passes, and trials that did not run apart,
 * then decides each cell by `rule`. Linear in the rows.
 */
export function tallyReport(rows: readonly ComparedRow[], rule: CellRule): SideTally {
  const cells = new Map<string, CellName & CellTally>();
  const totals = emptyTotals();
  const errors: ErrorCounts = { agentError: 0, harnessError: 0, timedOut: 0, overBudget: 0, notRun: 0 };
  const agents = new Map<string, SideTotals>();
  for (const row of rows) {
    const agent = columnName(row) ?? UNNAMED_AGENT;
    const key = cellKey({ file: row.file, id: row.id, agent });
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = { file: row.file, suite: row.suite, id: row.id, agent, trials: 0, passes: 0, notRun: 0, passed: null };
      cells.set(key, cell);
    }
    const outcome = outcomeOf(row);
    if (Object.hasOwn(ERROR_OUTCOMES, outcome)) errors[outcome as ErrorOutcome] += 1;
    if (outcome === 'notRun') {
      cell.notRun += 1;
      continue;
    }
    cell.trials += 1;
    if (outcome === 'passed') cell.passes += 1;
    let agentTotals = agents.get(agent);
    if (agentTotals === undefined) {
      agentTotals = emptyTotals();
      agents.set(agent, agentTotals);
    }
    addTrial(totals, row, outcome);
    addTrial(agentTotals, row, outcome);
  }
  for (const cell of cells.values())
    cell.passed = cell.trials === 0 ? null : cellPasses(cell.passes, cell.trials, rule);
  return { cells, totals, errors, agents };
}

/** How a row ended; a report older than `outcome` (or naming one this version does not know) says it by its step. */
export function outcomeOf(row: ComparedRow): Outcome {
  if (row.notRun === true) return 'notRun';
  if (row.outcome !== undefined && KNOWN_OUTCOMES.has(row.outcome)) return row.outcome as Outcome;
  if (row.passed) return 'passed';
  switch (row.failedStep) {
    case 'tamper':
      return 'tampered';
    case 'agent':
      return row.agent?.timedOut === true ? 'timedOut' : 'agentError';
    case 'setup':
    case 'harness':
      return 'harnessError';
    default:
      return 'failed';
  }
}

/** Sums with no trials in them. */
export function emptyTotals(): SideTotals {
  return { trials: 0, passes: 0, durationMs: 0, costIsEstimate: false };
}

function addTrial(totals: SideTotals, row: ComparedRow, outcome: Outcome): void {
  totals.trials += 1;
  if (outcome === 'passed') totals.passes += 1;
  totals.durationMs += row.durationMs ?? 0;
  const usage = row.agent?.usage;
  if (usage === undefined) return;
  if (usage.inputTokens !== undefined) totals.inputTokens = (totals.inputTokens ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== undefined) totals.outputTokens = (totals.outputTokens ?? 0) + usage.outputTokens;
  if (usage.costUsd !== undefined) {
    totals.costUsd = (totals.costUsd ?? 0) + usage.costUsd;
    // No cost gz-bench reads is a bill: an agent's figure, whether or not it says so, is an estimate.
    totals.costIsEstimate = true;
  }
}
