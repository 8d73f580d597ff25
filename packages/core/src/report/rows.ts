import { createRequire } from 'node:module';
import type stringWidthOf from 'string-width';
import { columnName } from '../skills/arm-columns.js';
import type { Outcome, Report, ReportResult, ReportSummary } from './model.js';

/** The columns of the table and markdown renderers, in display order. */
export const COLUMN_HEADERS = ['id', 'result', 'checks', 'time', 'first failure'] as const;

/** The index of the PASS/FAIL column, which the table renderer colours. */
export const RESULT_COLUMN = 1;

/** The plain text of one report row, one string per column of `COLUMN_HEADERS`. */
export type RowCells = [id: string, result: ResultLabel, checks: string, time: string, firstFailure: string];

/** Widest first-failure cell, in terminal columns, ellipsis included: one row stays one readable line. */
export const MAX_FAILURE_LENGTH = 80;

/** Turns each result of the report into the plain text of its row. */
export function toRows(report: Report): RowCells[] {
  const label = caseLabeler(report.results);
  return report.results.map((result) => [
    label(result),
    resultLabel(result),
    formatChecks(result),
    formatTime(result),
    truncate(singleLine(firstFailure(result)), MAX_FAILURE_LENGTH),
  ]);
}

/** How a row's outcome reads in the result column. */
export type ResultLabel =
  | 'PASS'
  | 'FAIL'
  | 'TIMEOUT'
  | 'TAMPERED'
  | 'AGENT ERROR'
  | 'OVER BUDGET'
  | 'HARNESS ERROR'
  | 'NOT RUN';

const RESULT_LABELS: Record<Outcome, ResultLabel> = {
  passed: 'PASS',
  failed: 'FAIL',
  timedOut: 'TIMEOUT',
  tampered: 'TAMPERED',
  agentError: 'AGENT ERROR',
  overBudget: 'OVER BUDGET',
  harnessError: 'HARNESS ERROR',
  notRun: 'NOT RUN',
};

/**
 * Each outcome its own word: PASS, FAIL (a check failed), TIMEOUT, TAMPERED (the agent changed
 * protected paths), AGENT ERROR (it crashed, could not start or exited non-zero), OVER BUDGET,
 * HARNESS ERROR (a setup command failed, or gz-bench could not run the case) and NOT RUN.
 */
export function resultLabel(result: ReportResult): ResultLabel {
  if (result.notRun) return 'NOT RUN';
  return RESULT_LABELS[result.outcome] ?? (result.passed ? 'PASS' : 'FAIL');
}

/** Which parts name a case besides its id. */
export interface LabelParts {
  /** Put the suite's name first. */
  suite: boolean;
  /** Put the suite file before the suite's name (which it implies). */
  file: boolean;
}

/** What names a case: its suite file, its suite and its id. */
export type CaseName = Pick<ReportResult, 'file' | 'suite' | 'id' | 'agentName' | 'arm' | 'trial'>;

/** Names a case on one line: `id`, `suite > id` or `file > suite > id`, as Vitest names tests. */
export function caseLabel(result: CaseName, parts: LabelParts): string {
  const names = [
    ...(parts.file ? [result.file] : []),
    ...(parts.file || parts.suite ? [result.suite] : []),
    // As Vitest names the test: the column's describe block (agent, arm) comes between the suite and the case.
    ...(columnName(result) === undefined ? [] : [columnName(result) as string]),
    result.id,
  ];
  const trial = result.trial === undefined ? '' : ` #${result.trial}`;
  return singleLine(`${names.join(' > ')}${trial}`);
}

/**
 * Returns how a case is named in rows: `suite > id` when the results come from more than one suite,
 * and `file > suite > id` for suites whose name another file's suite has too, so that no two cases
 * read alike.
 */
export function caseLabeler(results: readonly CaseName[]): (result: CaseName) => string {
  const filesOf = suiteFiles(results);
  const severalSuites = filesOf.size > 1;
  return (result) => caseLabel(result, { suite: severalSuites, file: (filesOf.get(result.suite)?.size ?? 0) > 1 });
}

/** The files that hold each suite name, for telling apart suites of the same name. */
export function suiteFiles(entries: Iterable<{ suite: string; file: string }>): Map<string, Set<string>> {
  const filesOf = new Map<string, Set<string>>();
  for (const { suite, file } of entries) filesOf.set(suite, (filesOf.get(suite) ?? new Set()).add(file));
  return filesOf;
}

/** Formats passed/total checks; skipped checks count in the total, so `0/3` says two were never evaluated. */
export function formatChecks(result: ReportResult): string {
  const passed = result.checkResults.filter((check) => check.passed).length;
  return `${passed}/${result.checkResults.length}`;
}

/** The time a case took, or `-` for a case that did not run: 0ms would read as a measurement. */
export function formatTime(result: ReportResult): string {
  return result.notRun ? '-' : formatDuration(result.durationMs);
}

/** Formats a duration as `1204ms` below ten seconds and `12.3s` from ten seconds on. */
export function formatDuration(durationMs: number): string {
  const ms = Math.round(durationMs);
  return ms < 10_000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * Formats the line under the table, e.g. `3 cases: 2 passed, 1 failed` (`, 1 failed (1 not run)`);
 * `runs` when the rows are runs of cases by several agents or in several trials.
 */
export function summaryLine(summary: ReportSummary, unit: 'case' | 'run' = 'case'): string {
  const noun = summary.total === 1 ? unit : `${unit}s`;
  const notRun = summary.notRun === undefined ? '' : ` (${summary.notRun} not run)`;
  return `${summary.total} ${noun}: ${summary.passed} passed, ${summary.failed} failed${notRun}`;
}

/** What a report's rows are: cases, or runs of cases (by several agents, in several trials). */
export function rowUnit(report: Report): 'case' | 'run' {
  return report.results.some((row) => row.agentName !== undefined || row.arm !== undefined || row.trial !== undefined)
    ? 'run'
    : 'case';
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

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Shortens text to at most `maxWidth` terminal columns, the last one `…`. Cuts between graphemes, so
 * no emoji, surrogate pair or letter with its combining marks is ever split.
 */
export function truncate(text: string, maxWidth: number): string {
  if (visibleWidth(text) <= maxWidth) return text;
  let kept = '';
  let width = 0;
  for (const { segment } of graphemes.segment(text)) {
    const segmentWidth = visibleWidth(segment);
    if (width + segmentWidth > maxWidth - 1) break;
    kept += segment;
    width += segmentWidth;
  }
  return `${kept}…`;
}

/**
 * Columns a string takes in a terminal: wide CJK characters and emoji take two, combining marks and
 * zero-width characters none, ANSI codes none.
 */
export function visibleWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: typeof stringWidthOf }).default;
  return stringWidth(text);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// string-width sets up Intl.Segmenter as it is imported, which takes tens of milliseconds: at every
// start of the CLI, for tables that are mostly plain ASCII. So it is loaded (synchronously, as the
// renderers are) for the first text that is not.
let stringWidth: typeof stringWidthOf | undefined;
