import { formatDuration, singleLine } from '../report/rows.js';
import { formatCost, formatCount, formatPValue } from '../report/scoreboard-text.js';
import { describeCellRule } from '../stats/cell-rule.js';
import { type CellLabeler, cellPValue, movedWithinNoise, tallyText } from './cell-text.js';
import type { ComparedCell, Comparison, ComparisonSide, Delta, Deltas, ErrorOutcome, PairedTest } from './model.js';

// The plain text of a comparison that the terminal and markdown renderers share: sections of rows of
// strings, each renderer pads or escapes them in its own way.

/** One table of the comparison: a title, its headers, and rows of as many strings. */
export interface TextTable {
  title: string;
  headers: readonly string[];
  rows: string[][];
  /** A line under the table, e.g. how many cells did not change. */
  note?: string;
}

const ERROR_LABELS: Record<ErrorOutcome, string> = {
  agentError: 'agent errors',
  harnessError: 'harness errors',
  timedOut: 'timed out',
  overBudget: 'over budget',
  notRun: 'not run',
};

const FLIP_TEXT = { passToFail: 'pass → fail', failToPass: 'fail → pass' } as const;

/** The line that names both reports and what each holds. */
export function headline(comparison: Comparison): string {
  return `gz-bench compare: ${singleLine(comparison.base.path)} (${sideSize(comparison.base)}) → ${singleLine(comparison.head.path)} (${sideSize(comparison.head)})`;
}

/** How each side decided its cells, said once when they differ. */
export function ruleLine(comparison: Comparison): string {
  const { base, head } = comparison;
  if (JSON.stringify(base.rule) === JSON.stringify(head.rule))
    return `A cell passes when ${describeCellRule(base.rule)}.`;
  return `A base cell passes when ${describeCellRule(base.rule)}; a head cell when ${describeCellRule(head.rule)}.`;
}

/** Rank of a cell in the changed-cells table: flips first, then significant changes, noise, cells that did not run. */
function rank(cell: ComparedCell): number {
  if (cell.flip === 'passToFail') return 0;
  if (cell.flip === 'failToPass') return 1;
  if (cell.change?.verdict === 'regression') return 2;
  if (cell.change?.verdict === 'improvement') return 3;
  if (movedWithinNoise(cell)) return 4;
  if (cell.change === null) return 5;
  return -1;
}

/** The cells that flipped, changed, moved within noise, or did not run on one side; flips first. */
export function changedCells(comparison: Comparison, label: CellLabeler): TextTable {
  const ranked = comparison.cells
    .map((cell, index) => ({ cell, index, rank: rank(cell) }))
    .filter((entry) => entry.rank >= 0)
    // Array#sort is stable; the index keeps head's order within a rank regardless.
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  const unchanged = comparison.cells.length - ranked.length;
  const table: TextTable = {
    title: 'Changed cells',
    headers: ['case', 'agent', 'base', 'head', 'flip', 'change', 'p'],
    rows: ranked.map(({ cell }) => [
      label(cell),
      singleLine(cell.agent),
      tallyText(cell.base),
      tallyText(cell.head),
      cell.flip === null ? '' : FLIP_TEXT[cell.flip],
      changeText(cell),
      pText(cell),
    ]),
  };
  if (comparison.cells.length === 0) table.note = 'No cell is in both reports.';
  else if (unchanged > 0)
    table.note = `${unchanged} of ${comparison.cells.length} cells in both reports did not change.`;
  return table;
}

/** Cells of only one report: new in head, removed from base. */
export function oneSidedCells(comparison: Comparison, label: CellLabeler): TextTable {
  return {
    title: 'New and removed cells',
    headers: ['case', 'agent', 'only in', 'trials'],
    rows: [
      ...comparison.newCells.map((cell) => [label(cell), singleLine(cell.agent), 'head (new)', tallyText(cell.tally)]),
      ...comparison.removedCells.map((cell) => [
        label(cell),
        singleLine(cell.agent),
        'base (removed)',
        tallyText(cell.tally),
      ]),
    ],
  };
}

/** Trials that ended in errors on each side, by outcome; only outcomes either side had. */
export function errorCounts(comparison: Comparison): TextTable {
  const { base, head } = comparison;
  const outcomes = (Object.keys(ERROR_LABELS) as ErrorOutcome[]).filter(
    (outcome) => base.errors[outcome] > 0 || head.errors[outcome] > 0,
  );
  return {
    title: 'Errors',
    headers: ['trials', 'base', 'head', 'change'],
    rows: outcomes.map((outcome) => [
      ERROR_LABELS[outcome],
      String(base.errors[outcome]),
      String(head.errors[outcome]),
      signed(head.errors[outcome] - base.errors[outcome], String),
    ]),
  };
}

/** The sections of a comparison, in the order both renderings show them; empty ones are for the renderer to leave out. */
export function comparisonTables(comparison: Comparison, label: CellLabeler): TextTable[] {
  return [
    changedCells(comparison, label),
    oneSidedCells(comparison, label),
    errorCounts(comparison),
    deltaTable(comparison),
  ];
}

/** Duration, tokens and cost: all agents, then each agent when there are several. */
export function deltaTable(comparison: Comparison): TextTable {
  const rows = [['all', ...deltaCells(comparison.deltas)]];
  if (comparison.agents.length > 1) {
    for (const agent of comparison.agents) rows.push([singleLine(agent.name), ...deltaCells(agent.deltas)]);
  }
  const estimate = comparison.deltas.costIsEstimate;
  return {
    title: 'Duration, tokens and cost',
    headers: ['agents', 'duration', 'tokens in', 'tokens out', estimate ? 'cost (est.)' : 'cost'],
    rows,
    note: `Sums over every trial that ran, new and removed cells included.${estimate ? ' Costs are the agents’ own estimates, not a bill.' : ''}`,
  };
}

/**
 * One line per agent: its verdict and why, then its paired test. A single agent's reason is the
 * verdict's own, so only its paired test is said.
 */
export function agentLines(comparison: Comparison): string[] {
  const [only] = comparison.agents;
  if (comparison.agents.length === 1 && only !== undefined) {
    const text = pairedText(only.paired);
    return [`${text.charAt(0).toUpperCase()}${text.slice(1)}.`];
  }
  return comparison.agents.map(
    (agent) => `${singleLine(agent.name)}: ${singleLine(agent.reason)} [${pairedText(agent.paired)}]`,
  );
}

/** The overall verdict line. */
export function overallLine(comparison: Comparison): string {
  return `Verdict: ${singleLine(comparison.reason)}`;
}

/** The paired test of an agent in words, e.g. `paired test over 6 cases: pass rate -33.3 points, p = 0.031`. */
export function pairedText(paired: PairedTest): string {
  if (paired.cases === 0) return 'no case ran in both';
  const mean = Math.round(paired.meanDifference * 1000) / 10;
  const shift = `pass rate ${mean > 0 ? '+' : ''}${mean} points`;
  return `paired test over ${paired.cases} ${paired.cases === 1 ? 'case' : 'cases'}: ${shift}, ${formatPValue(paired.pValue)}`;
}

function changeText(cell: ComparedCell): string {
  if (cell.change === null) return 'not compared';
  if (cell.change.verdict === 'unchanged') return movedWithinNoise(cell) ? 'within noise' : 'unchanged';
  return cell.change.verdict;
}

function pText(cell: ComparedCell): string {
  if (cell.change === null) return '';
  const p = cellPValue(cell);
  if (p === null) return 'one trial';
  return p < 0.001 ? '< 0.001' : String(Number(p.toPrecision(2)));
}

function deltaCells(deltas: Deltas): string[] {
  return [
    deltaText(deltas.durationMs, formatDuration),
    deltaText(deltas.inputTokens, formatCount),
    deltaText(deltas.outputTokens, formatCount),
    deltaText(deltas.costUsd, formatCost),
  ];
}

/** `12.3s → 15.0s (+2.7s, +22%)`; `-` for a figure neither side reported. */
function deltaText(delta: Delta, format: (value: number) => string): string {
  if (delta.base === undefined && delta.head === undefined) return '-';
  const base = delta.base === undefined ? '-' : format(delta.base);
  const head = delta.head === undefined ? '-' : format(delta.head);
  if (delta.delta === undefined || delta.base === undefined) return `${base} → ${head}`;
  const share = delta.base > 0 ? `, ${signed(Math.round((delta.delta / delta.base) * 100), String)}%` : '';
  return `${base} → ${head} (${signed(delta.delta, format)}${share})`;
}

function signed(value: number, format: (value: number) => string): string {
  if (value === 0) return format(0);
  return value > 0 ? `+${format(value)}` : `-${format(-value)}`;
}

function sideSize(side: ComparisonSide): string {
  const { trials, passes } = side.totals;
  const notRun = side.errors.notRun > 0 ? `, ${side.errors.notRun} not run` : '';
  return `${passes}/${trials} ${trials === 1 ? 'trial' : 'trials'} passed${notRun}`;
}
