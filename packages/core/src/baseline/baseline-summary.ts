import type { ReportResult } from '../report/model.js';
import { columnName } from '../skills/arm-columns.js';
import { type BaselineVerdict, formatP } from './judge-cell.js';
import type { ObsoleteEntry } from './update-baseline.js';

/** What a run's baselines said, over its cells: the report's `baseline`. */
export interface BaselineSummary {
  /** Cells by verdict. */
  knownFailures: number;
  regressions: number;
  improvements: number;
  same: number;
  new: number;
  /** Some cell improved on its baseline, or an entry is obsolete: the files want an update. */
  stale: boolean;
  /** The cells that regressed or improved, in report order. */
  changes: BaselineChange[];
  /** Entries whose case is gone from its suite, by baseline file (relative to the Vitest root). */
  obsolete: Array<ObsoleteEntry & { file: string }>;
  /** Baseline files this run wrote (an update), relative to the Vitest root. */
  written?: string[];
}

/** A cell whose result moved against its baseline. */
export interface BaselineChange {
  /** Suite file relative to the Vitest root. */
  file: string;
  agentName?: string;
  caseId: string;
  verdict: 'regression' | 'improvement';
  /** Passes and trials in the baseline, then in this run. */
  from: { passes: number; trials: number };
  to: { passes: number; trials: number };
  p?: number;
}

/** Counts the verdicts of the cells among `results` (a cell's trials carry one verdict between them). */
export function summarizeBaseline(
  results: readonly ReportResult[],
  obsolete: BaselineSummary['obsolete'],
  written?: string[],
): BaselineSummary | undefined {
  const cells = new Map<string, BaselineVerdict>();
  const changes = new Map<string, BaselineChange>();
  for (const result of results) {
    const judged = result.baseline;
    if (judged === undefined) continue;
    const column = columnName(result);
    const key = JSON.stringify([result.file, column ?? null, result.id]);
    cells.set(key, judged.verdict);
    if (judged.verdict !== 'regression' && judged.verdict !== 'improvement') continue;
    const change = changes.get(key) ?? {
      file: result.file,
      ...(column !== undefined && { agentName: column }),
      caseId: result.id,
      verdict: judged.verdict,
      from: { passes: judged.passes ?? 0, trials: judged.trials ?? 0 },
      to: { passes: 0, trials: 0 },
      ...(judged.p !== undefined && { p: judged.p }),
    };
    change.to.trials += 1;
    if (result.passed) change.to.passes += 1;
    changes.set(key, change);
  }
  if (cells.size === 0 && obsolete.length === 0 && written === undefined) return undefined;
  const count = (verdict: BaselineVerdict) => [...cells.values()].filter((each) => each === verdict).length;
  const improvements = count('improvement');
  return {
    knownFailures: count('knownFailure'),
    regressions: count('regression'),
    improvements,
    same: count('same'),
    new: count('new'),
    changes: [...changes.values()],
    stale: written === undefined && (improvements > 0 || obsolete.length > 0),
    obsolete,
    ...(written !== undefined && { written }),
  };
}

/**
 * The lines under the table: `baseline: 2 known failures, 1 regression, 1 improvement (baseline stale:
 * run with -u)`, then each obsolete entry, or the files an update wrote.
 */
export function renderBaselineSummary(summary: BaselineSummary): string[] {
  const parts = [
    plural(summary.knownFailures, 'known failure'),
    plural(summary.regressions, 'regression'),
    plural(summary.improvements, 'improvement'),
    summary.same > 0 ? `${summary.same} as before` : '',
    summary.new > 0 ? `${summary.new} new (not in the baseline)` : '',
  ].filter((part) => part !== '');
  // An update took this run's results as they are: what moved is accepted, not pending.
  const moved = summary.regressions + summary.improvements + summary.knownFailures > 0;
  const stale = summary.stale ? ' (baseline stale: run with -u)' : summary.written && moved ? ' (accepted by -u)' : '';
  const lines = [`baseline: ${parts.length > 0 ? parts.join(', ') : 'nothing judged'}${stale}`];
  for (const change of summary.changes) {
    const cell = change.agentName === undefined ? change.caseId : `${change.agentName} > ${change.caseId}`;
    const p = change.p === undefined ? '' : ` (p = ${formatP(change.p)})`;
    const moved = `${change.from.passes}/${change.from.trials} → ${change.to.passes}/${change.to.trials}`;
    lines.push(`${change.verdict} ${change.file}: ${JSON.stringify(cell)} ${moved}${p}`);
  }
  for (const entry of summary.obsolete) {
    const cell = entry.agentName === undefined ? entry.caseId : `${entry.agentName} > ${entry.caseId}`;
    const action = summary.written === undefined ? ' (removed by -u)' : ' (removed)';
    lines.push(`obsolete baseline entry ${entry.file}: ${JSON.stringify(cell)}${action}`);
  }
  for (const file of summary.written ?? []) lines.push(`baseline written: ${file}`);
  return lines;
}

function plural(count: number, noun: string): string {
  if (count === 0) return '';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
