import { caseLabeler } from '../report/rows.js';
import { cellChange } from '../stats/cell-change.js';
import { pairedComparison } from '../stats/paired-test.js';
import type { CellLabeler } from './cell-text.js';
import { deltasOf } from './deltas.js';
import type {
  AgentComparison,
  CellName,
  CellTally,
  ComparedCell,
  Comparison,
  ComparisonSide,
  OneSidedCell,
  PairedTest,
} from './model.js';
import type { LoadedReport } from './read-report.js';
import { cellKey, emptyTotals, type SideTally, tallyReport } from './tally-report.js';
import { agentVerdict, overallVerdict } from './verdict.js';

/**
 * Compares a head report with a base report cell by cell (suite file, case id, agent): each cell's
 * change by Fisher's exact test (or, with one trial a side, its flip), the cells only one side has,
 * errors, duration, tokens and cost, and per agent a paired test over the cases both ran with a plain
 * verdict. Pure and linear in the rows, but for the paired test's sampling above 20 changed cases.
 */
export function buildComparison(base: LoadedReport, head: LoadedReport): Comparison {
  const baseTally = tallyReport(base.report.results, base.rule);
  const headTally = tallyReport(head.report.results, head.rule);

  const cells: ComparedCell[] = [];
  const newCells: OneSidedCell[] = [];
  for (const [key, headCell] of headTally.cells) {
    const baseCell = baseTally.cells.get(key);
    if (baseCell === undefined) newCells.push(oneSided(headCell));
    else cells.push(comparedCell(baseCell, headCell));
  }
  const removedCells = [...baseTally.cells]
    .filter(([key]) => !headTally.cells.has(key))
    .map(([, baseCell]) => oneSided(baseCell));

  const label = labeler([...cells, ...newCells, ...removedCells]);
  const agents = compareAgents(cells, baseTally, headTally, label);
  const verdict = overallVerdict(agents.map((agent) => agent.verdict));
  return {
    base: side(base, baseTally),
    head: side(head, headTally),
    cells,
    newCells,
    removedCells,
    deltas: deltasOf(baseTally.totals, headTally.totals),
    agents,
    verdict,
    reason: overallReason(agents),
  };
}

/** Names cells by case only (the agent is said apart), as the report's table would name their cases. */
export function labeler(cells: readonly CellName[]): CellLabeler {
  const label = caseLabeler(cells.map(({ file, suite, id }) => ({ file, suite, id })));
  return (cell) => label({ file: cell.file, suite: cell.suite, id: cell.id });
}

function comparedCell(base: CellName & CellTally, head: CellName & CellTally): ComparedCell {
  const change =
    base.trials > 0 && head.trials > 0
      ? cellChange({ trials: base.trials, passes: base.passes }, { trials: head.trials, passes: head.passes })
      : null;
  const flip =
    base.passed === true && head.passed === false
      ? 'passToFail'
      : base.passed === false && head.passed === true
        ? 'failToPass'
        : null;
  // Head names the suite as it is now.
  return { ...name(head), base: tally(base), head: tally(head), change, flip };
}

function compareAgents(
  cells: readonly ComparedCell[],
  baseTally: SideTally,
  headTally: SideTally,
  label: CellLabeler,
): AgentComparison[] {
  const cellsOf = new Map<string, ComparedCell[]>();
  for (const cell of cells) {
    const list = cellsOf.get(cell.agent);
    if (list === undefined) cellsOf.set(cell.agent, [cell]);
    else list.push(cell);
  }
  return [...cellsOf].map(([name, agentCells]) => {
    const paired = pairedTest(agentCells);
    const base = baseTally.agents.get(name) ?? emptyTotals();
    const head = headTally.agents.get(name) ?? emptyTotals();
    return { name, base, head, deltas: deltasOf(base, head), paired, ...agentVerdict(agentCells, paired, label) };
  });
}

/** Head against base over the cells both sides ran: head first, so a negative mean is head doing worse. */
function pairedTest(cells: readonly ComparedCell[]): PairedTest {
  const ran = cells.filter((cell) => cell.change !== null);
  const key = (cell: ComparedCell) => cellKey(cell);
  const comparison = pairedComparison(
    ran.map((cell) => ({ key: key(cell), trials: cell.head.trials, passes: cell.head.passes })),
    ran.map((cell) => ({ key: key(cell), trials: cell.base.trials, passes: cell.base.passes })),
  );
  return {
    cases: comparison.cases.length,
    meanDifference: comparison.meanDifference,
    pValue: comparison.pValue,
    method: comparison.method,
    significant: comparison.significant,
  };
}

function overallReason(agents: readonly AgentComparison[]): string {
  if (agents.length === 0) return 'within noise: no case ran in both reports';
  const [only] = agents;
  if (agents.length === 1 && only !== undefined) return only.reason;
  const byVerdict = (['regression', 'improvement', 'within noise'] as const)
    .map(
      (verdict) => [verdict, agents.filter((agent) => agent.verdict === verdict).map((agent) => agent.name)] as const,
    )
    .filter(([, names]) => names.length > 0);
  return byVerdict.map(([verdict, names]) => `${verdict}: ${names.join(', ')}`).join('; ');
}

function side(loaded: LoadedReport, tallied: SideTally): ComparisonSide {
  return { path: loaded.path, rule: loaded.rule, totals: tallied.totals, errors: tallied.errors };
}

function oneSided(cell: CellName & CellTally): OneSidedCell {
  return { ...name(cell), tally: tally(cell) };
}

function name({ file, suite, id, agent }: CellName): CellName {
  return { file, suite, id, agent };
}

function tally({ trials, passes, notRun, passed }: CellTally): CellTally {
  return { trials, passes, notRun, passed };
}
