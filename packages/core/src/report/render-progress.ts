import type { ReportResult } from './model.js';
import { formatDuration, MAX_FAILURE_LENGTH, resultLabel, singleLine, truncate } from './rows.js';

/** One line for a finished case, for logs where no live progress display runs (CI). */
export function renderProgressLine(result: ReportResult): string {
  const label = singleLine(result.suite === '' ? result.id : `${result.suite} > ${result.id}`);
  const failure = result.passed ? '' : `  ${truncate(singleLine(result.error ?? 'failed'), MAX_FAILURE_LENGTH)}`;
  return `gz-bench ${resultLabel(result)}  ${label}  ${formatDuration(result.durationMs)}${failure}`;
}
