import { planResumeCell, resumeCellKey } from '@gz-bench/core/run';
import type { WorkerOptions } from '../shared/options.js';
import type { TrialResult } from './run-trial.js';

/** The trials a cell runs now, and the earlier results it keeps instead of running the others. */
export interface CellTrials {
  /** Trial numbers from 1. */
  run: number[];
  kept: TrialResult[];
}

/**
 * Which of a cell's trials run: all of them, or, when the run resumes an earlier report
 * (`onlyFailed`), those the report gives no passing result; the passing ones are kept as they were.
 */
export function cellTrials(
  options: WorkerOptions,
  file: string,
  cell: { column: string | undefined; caseId: string },
  trials: number,
): CellTrials {
  if (options.resume === undefined) return { run: Array.from({ length: trials }, (_, offset) => offset + 1), kept: [] };
  const { rerun, kept } = planResumeCell(options.resume[file]?.[resumeCellKey(cell.column, cell.caseId)], trials);
  return { run: rerun, kept };
}
