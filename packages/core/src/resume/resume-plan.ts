import type { ReportResult } from '../report/model.js';
import { columnName } from '../skills/arm-columns.js';

/** What a resumed run does with one (agent, case) cell: the trials to run again, the rows to keep. */
export interface ResumeCell {
  /** Trial numbers (from 1) that run again: the earlier run gave them no passing result. */
  rerun: number[];
  /** The earlier passing rows of the cell's other trials, kept as they were. */
  kept: ReportResult[];
}

/** The earlier report's rows by suite file (as the report names it) and by cell key. */
export type EarlierCells = Map<string, Map<string, ReportResult[]>>;

/**
 * The key of a (column, case) cell within a suite file: the column (`columnName`) names its agent and
 * arm, and is undefined for the run's one `cmd` without arms.
 */
export function resumeCellKey(column: string | undefined, caseId: string): string {
  return JSON.stringify([column ?? null, caseId]);
}

/** Groups an earlier report's rows by suite file and cell. */
export function groupEarlierRows(rows: readonly ReportResult[]): EarlierCells {
  const byFile: EarlierCells = new Map();
  for (const row of rows) {
    const cells = byFile.get(row.file) ?? new Map<string, ReportResult[]>();
    const key = resumeCellKey(columnName(row), row.id);
    cells.set(key, [...(cells.get(key) ?? []), row]);
    byFile.set(row.file, cells);
  }
  return byFile;
}

/**
 * Plans one cell of a resumed run of `trials` trials: each trial whose earlier row passed is kept,
 * every other one (failed, errored, not run, or absent from the earlier report) runs again. Only
 * `passed` rows are kept: a resume exists to complete a run, never to keep a failure as settled.
 */
export function planResumeCell(earlier: readonly ReportResult[] | undefined, trials: number): ResumeCell {
  const kept: ReportResult[] = [];
  const rerun: number[] = [];
  for (let trial = 1; trial <= trials; trial++) {
    const row = earlier?.find((candidate) => (candidate.trial ?? 1) === trial);
    if (row?.outcome === 'passed' && row.passed) kept.push(row);
    else rerun.push(trial);
  }
  return { rerun, kept };
}

/** What the run plans: each suite file (as reports name it) with the cells it has now. */
export interface PlannedCells {
  file: string;
  cellKeys: readonly string[];
}

/**
 * Rows of the earlier report that match nothing this run plans: a suite file it does not run, a case
 * or agent the suite no longer has, a trial beyond the run's count. Each group is one line to warn with.
 */
export function unmatchedEarlierRows(
  earlier: EarlierCells,
  planned: readonly PlannedCells[],
  trials: number,
): string[] {
  const warnings: string[] = [];
  const plannedFiles = new Map(planned.map((entry) => [entry.file, new Set(entry.cellKeys)]));
  for (const [file, cells] of earlier) {
    const now = plannedFiles.get(file);
    if (now === undefined) {
      warnings.push(`the earlier report's rows of ${file} match no suite file of this run; they are left out`);
      continue;
    }
    const gone = [...cells.keys()].filter((key) => !now.has(key)).map(describeCell);
    if (gone.length > 0) {
      warnings.push(`${file}: ${gone.join(', ')} of the earlier report no longer in the suite or run; left out`);
    }
    const beyond = [...cells.values()].flat().filter((row) => (row.trial ?? 1) > trials);
    if (beyond.length > 0) {
      warnings.push(
        `${file}: ${beyond.length} earlier ${beyond.length === 1 ? 'row is of a trial' : 'rows are of trials'} beyond this run's ${trials}; left out`,
      );
    }
  }
  return warnings;
}

function describeCell(key: string): string {
  const [agent, id] = JSON.parse(key) as [string | null, string];
  return agent === null ? `case "${id}"` : `agent "${agent}" > case "${id}"`;
}
