import type { ReportResult } from './model.js';
import { caseLabel, formatTime, MAX_FAILURE_LENGTH, resultLabel, singleLine, truncate } from './rows.js';

/** Options of `renderProgressLine`. */
export interface ProgressLineOptions {
  /**
   * Name the suite file too (`file > suite > id`), for a suite whose name another file's suite has.
   * @default false
   */
  file?: boolean;
}

/** One line for a finished case, for logs where no live progress display runs (CI). */
export function renderProgressLine(result: ReportResult, options: ProgressLineOptions = {}): string {
  const label = caseLabel(result, { suite: result.suite !== '', file: options.file === true });
  const failure = result.passed ? '' : `  ${truncate(singleLine(result.error ?? 'failed'), MAX_FAILURE_LENGTH)}`;
  return `gz-bench ${resultLabel(result)}  ${label}  ${formatTime(result)}${failure}`;
}
