import { relative, sep } from 'node:path';
import {
  buildReport,
  caseLabeler,
  type LoadedSuite,
  notRunResult,
  type Report,
  renderJson,
  renderScoreboard,
  renderSweep,
  renderTable,
} from '@gz-bench/core';
import { packageVersion } from '../node/package-version.js';

/** The suites a `run` validated, and the root their report rows are relative to. */
export interface LoadedSuites {
  root: string;
  suites: readonly LoadedSuite[];
}

/** A report in which every case of the suites did not run, for a Vitest that never reported. */
export function notRunReport(
  { root, suites }: LoadedSuites,
  reason = 'Vitest ended the run without running it',
): Report {
  const rows = suites.flatMap(({ suite, file }) =>
    suite.cases.map((testCase) =>
      notRunResult(
        {
          file: relative(root, file).split(sep).join('/'),
          suite: suite.name,
          id: testCase.id,
          checks: testCase.checks,
        },
        reason,
      ),
    ),
  );
  return buildReport(rows, { gzBenchVersion: packageVersion() });
}

/** How `printReport` writes. */
export interface PrintOptions {
  /** One JSON document on stdout instead of the table. */
  json: boolean;
  /** Writes to stdout. */
  write: (text: string) => Promise<void>;
}

/**
 * Prints the report: the table, or with `--json` the JSON document alone on stdout and the kept
 * workspaces on stderr. Cases that did not run are also said on stderr, where a pipeline's log shows them.
 */
export async function printReport(report: Report, { json, write }: PrintOptions): Promise<void> {
  if (json) {
    await write(renderJson(report));
    const label = caseLabeler(report.results);
    for (const result of report.results) {
      if (result.workspace !== undefined)
        process.stderr.write(`kept workspace ${label(result)}: ${result.workspace}\n`);
    }
  } else {
    const color = process.stdout.isTTY === true && !('NO_COLOR' in process.env);
    const table = renderTable(report, { color });
    await write(report.results.length > 0 ? `\n${table}` : table);
    if (report.scoreboard !== undefined) await write(`\n${renderScoreboard(report.scoreboard, { color })}`);
    if (report.sweep !== undefined) await write(`\n${renderSweep(report.sweep)}`);
  }
  const notRun = report.summary.notRun ?? 0;
  if (notRun > 0) {
    process.stderr.write(
      `gz-bench: ${notRun} of ${report.summary.total} ${report.summary.total === 1 ? 'case' : 'cases'} did not finish; the report marks them NOT RUN\n`,
    );
  }
}
