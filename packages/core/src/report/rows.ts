import type { Report, ReportResult, ReportSummary } from './model.js';

/** The columns of the table and markdown renderers, in display order. */
export const COLUMN_HEADERS = ['id', 'result', 'checks', 'time', 'first failure'] as const;

/** The index of the PASS/FAIL column, which the table renderer colours. */
export const RESULT_COLUMN = 1;

/** The plain text of one report row, one string per column of `COLUMN_HEADERS`. */
export type RowCells = [
  id: string,
  result: 'PASS' | 'FAIL' | 'TAMPERED',
  checks: string,
  time: string,
  firstFailure: string,
];

/** Longest first-failure cell, in characters, ellipsis included: one row stays one readable line. */
export const MAX_FAILURE_LENGTH = 80;

/** Turns each result of the report into the plain text of its row. */
export function toRows(report: Report): RowCells[] {
  const label = caseLabeler(report.results);
  return report.results.map((result) => [
    label(result),
    resultLabel(result),
    formatChecks(result),
    formatDuration(result.durationMs),
    truncate(singleLine(firstFailure(result)), MAX_FAILURE_LENGTH),
  ]);
}

/** PASS or FAIL, or TAMPERED for a case whose agent changed protected paths: its own outcome. */
export function resultLabel(result: ReportResult): RowCells[1] {
  if (result.tampered !== undefined && result.tampered.length > 0) return 'TAMPERED';
  return result.passed ? 'PASS' : 'FAIL';
}

/** Returns how a case is named in rows: `suite > id` when the results come from more than one suite. */
export function caseLabeler(results: readonly ReportResult[]): (result: ReportResult) => string {
  const suites = new Set(results.map((result) => result.suite));
  return suites.size > 1 ? (result) => singleLine(`${result.suite} > ${result.id}`) : (result) => singleLine(result.id);
}

/** Formats passed/total checks; skipped checks count in the total, so `0/3` says two were never evaluated. */
export function formatChecks(result: ReportResult): string {
  const passed = result.checkResults.filter((check) => check.passed).length;
  return `${passed}/${result.checkResults.length}`;
}

/** Formats a duration as `1204ms` below ten seconds and `12.3s` from ten seconds on. */
export function formatDuration(durationMs: number): string {
  const ms = Math.round(durationMs);
  return ms < 10_000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** Formats the line under the table, e.g. `3 cases: 2 passed, 1 failed`. */
export function summaryLine(summary: ReportSummary): string {
  const cases = summary.total === 1 ? 'case' : 'cases';
  return `${summary.total} ${cases}: ${summary.passed} passed, ${summary.failed} failed`;
}

/** The message that explains a failed case: its error, else its first failed check's message. */
function firstFailure(result: ReportResult): string {
  if (result.passed) return '';
  return result.error ?? result.checkResults.find((check) => !check.passed && !check.skipped)?.message ?? '';
}

/**
 * Folds text onto one line: line breaks (with the indentation around them) become one space, and other
 * control characters become spaces so agent output cannot move the cursor or break a row.
 */
export function singleLine(text: string): string {
  return (
    text
      .replace(/[ \t]*[\r\n]+[ \t]*/g, ' ')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .trim()
  );
}

/** Shortens text to at most `max` characters, the last one `…`; counts code points so emoji are never split. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Columns a string takes in a terminal, counted as code points (wide CJK characters are not measured). */
export function visibleWidth(text: string): number {
  return Array.from(text).length;
}
