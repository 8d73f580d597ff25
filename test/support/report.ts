import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report, ReportResult } from '@gz-bench/core';

/** The JSON report a run wrote at `path` (relative to the project `dir`). */
export async function readReport(dir: string, path: string): Promise<Report> {
  return JSON.parse(await readFile(join(dir, path), 'utf8')) as Report;
}

/** The report's row for case `id`; throws, listing the ids there are, when it has none. */
export function resultOf(report: Report, id: string): ReportResult {
  const found = report.results.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no result for case ${id} in ${JSON.stringify(report.results.map((r) => r.id))}`);
  return found;
}
