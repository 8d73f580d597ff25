import type { Report, ReportResult } from '@gz-bench/core';

/** The report's row for case `id`; throws, listing the ids there are, when it has none. */
export function resultOf(report: Report, id: string): ReportResult {
  const found = report.results.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no result for case ${id} in ${JSON.stringify(report.results.map((r) => r.id))}`);
  return found;
}
