import { singleLine } from '../report/rows.js';
import { formatPValue } from '../report/scoreboard-text.js';
import type { ComparedCell, OneSidedCell } from './model.js';

// The words for cells that the verdict sentences and both renderers share.

/** Names cells as the case table does: `id`, `suite > id` or `file > suite > id`, whichever tells them apart. */
export type CellLabeler = (cell: OneSidedCell | ComparedCell) => string;

/** `passes/trials` of one side, `not run` when none of its trials ran. */
export function tallyText(tally: { trials: number; passes: number; notRun: number }): string {
  return tally.trials === 0 ? 'not run' : `${tally.passes}/${tally.trials}`;
}

/** The p-value that speaks to the cell's direction: of a drop when head passes less often, else of a rise. */
export function cellPValue(cell: ComparedCell): number | null {
  if (cell.change === null || cell.change.method === 'flip') return null;
  return passRate(cell.head) < passRate(cell.base) ? cell.change.pWorse : cell.change.pBetter;
}

/** `fix-bug (claude) 3/3 → 0/3, p = 0.025`, or with one trial a side `… 1/1 → 0/1, one trial each`. */
export function cellSentence(cell: ComparedCell, label: CellLabeler): string {
  const p = cellPValue(cell);
  const evidence = p === null ? 'one trial each' : formatPValue(p);
  return `${label(cell)} (${singleLine(cell.agent)}) ${tallyText(cell.base)} → ${tallyText(cell.head)}, ${evidence}`;
}

/** The pass rate of a side that ran; 0 when none of its trials ran. */
export function passRate(tally: { trials: number; passes: number }): number {
  return tally.trials === 0 ? 0 : tally.passes / tally.trials;
}

/** A cell whose pass rate moved but whose change is not significant. */
export function movedWithinNoise(cell: ComparedCell): boolean {
  return cell.change?.verdict === 'unchanged' && passRate(cell.base) !== passRate(cell.head);
}
