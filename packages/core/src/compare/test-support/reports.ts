import { buildReport } from '../../report/build-report.js';
import type { Outcome, Report, ReportResult, Usage } from '../../report/model.js';
import { trial } from '../../report/test-support/trials.js';
import type { CellRule } from '../../stats/cell-rule.js';
import type { LoadedReport } from '../read-report.js';
import { ComparedReportSchema } from '../report-schema.js';

/** Rows of one cell: `passes` passing trials then failing ones, `trials` in all, numbered from 1. */
export function cell(
  agent: string | undefined,
  id: string,
  passes: number,
  trials: number,
  options: { failWith?: Outcome; durationMs?: number; usage?: Usage } = {},
): ReportResult[] {
  return Array.from({ length: trials }, (_, index) =>
    trial(
      agent,
      id,
      index + 1,
      index < passes ? 'passed' : (options.failWith ?? 'failed'),
      options.durationMs ?? 1000,
      options.usage,
    ),
  );
}

/** A loaded report of these rows, as `readReportFile` returns one. */
export function loaded(path: string, rows: readonly ReportResult[], rule: CellRule = 'majority'): LoadedReport {
  const report: Report = buildReport([...rows], { gzBenchVersion: '0.0.0' });
  // Through JSON and the schema, as a report file is read.
  return { path, report: ComparedReportSchema.parse(JSON.parse(JSON.stringify(report))), rule };
}
