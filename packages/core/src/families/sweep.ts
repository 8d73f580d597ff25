import type { ReportResult } from '../report/model.js';
import type { FamilyKind } from './types.js';

/**
 * One row of the sweep: one (family, size, agent) cell over its trials. Counts are medians over the
 * trials (so one wandering trial does not hide the typical one); `passes` of `trials` is the result.
 */
export interface SweepRow {
  /** The suite file, relative to the Vitest root: families of two files may share an id. */
  file: string;
  family: string;
  kind: FamilyKind;
  size: number;
  /** Absent for the run's single `cmd`. */
  agent?: string;
  trials: number;
  passes: number;
  calls: number;
  idealCalls: number;
  /** Median over the trials whose agent reported its turns; absent when none did. */
  turns?: number;
  maxConcurrency: number;
  /** faultRecovery: median faults met and recovered. */
  faults?: number;
  faultsRecovered?: number;
  /** parallelLookup: whether every trial retrieved every value. */
  allRetrieved?: boolean;
}

/** The sweep of a report: one row per (family, size, agent), or none when the run had no family cases. */
export function buildSweep(results: readonly ReportResult[]): SweepRow[] {
  const cells = new Map<string, ReportResult[]>();
  for (const result of results) {
    if (result.family === undefined) continue;
    const key = JSON.stringify([result.file, result.family.id, result.family.size, result.agentName ?? null]);
    cells.set(key, [...(cells.get(key) ?? []), result]);
  }
  const rows = [...cells.values()].flatMap((trials) => {
    const first = trials[0]?.family;
    if (first === undefined || trials[0] === undefined) return [];
    const families = trials.flatMap((trial) => (trial.family ? [trial.family] : []));
    const turns = trials.flatMap((trial) => {
      const reported = trial.agent?.usage?.turns;
      return reported === undefined ? [] : [reported];
    });
    const faults = families.flatMap((family) => (family.faults === undefined ? [] : [family.faults]));
    const recovered = families.flatMap((family) =>
      family.faultsRecovered === undefined ? [] : [family.faultsRecovered],
    );
    const retrieved = families.flatMap((family) => (family.allRetrieved === undefined ? [] : [family.allRetrieved]));
    const row: SweepRow = {
      file: trials[0].file,
      family: first.id,
      kind: first.kind,
      size: first.size,
      ...(trials[0].agentName !== undefined && { agent: trials[0].agentName }),
      trials: trials.length,
      passes: trials.filter((trial) => trial.passed).length,
      calls: median(families.map((family) => family.calls)),
      idealCalls: first.idealCalls,
      ...(turns.length > 0 && { turns: median(turns) }),
      maxConcurrency: median(families.map((family) => family.maxConcurrency)),
      ...(faults.length > 0 && { faults: median(faults), faultsRecovered: median(recovered) }),
      ...(retrieved.length > 0 && { allRetrieved: retrieved.every(Boolean) }),
    };
    return [row];
  });
  // Rows in the report's order of files and families, sizes ascending, agents as they came.
  const familyOrder = [...new Set(rows.map((row) => `${row.file}\u0000${row.family}`))];
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        familyOrder.indexOf(`${a.row.file}\u0000${a.row.family}`) -
          familyOrder.indexOf(`${b.row.file}\u0000${b.row.family}`) ||
        a.row.size - b.row.size ||
        a.index - b.index,
    )
    .map(({ row }) => row);
}

/** The median, the lower middle of an even count rounded to one decimal (counts stay readable). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return Math.round((value ?? 0) * 10) / 10;
}
