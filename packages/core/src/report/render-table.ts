import { renderBaselineSummary } from '../baseline/baseline-summary.js';
import type { Report } from './model.js';
import {
  COLUMN_HEADERS,
  caseLabeler,
  RESULT_COLUMN,
  rowUnit,
  singleLine,
  summaryLine,
  toRows,
  visibleWidth,
} from './rows.js';

/** Options of `renderTable`. */
export interface TableOptions {
  /**
   * Colour PASS green and FAIL, TAMPERED and NOT RUN red with ANSI codes.
   * @default false
   */
  color?: boolean;
}

type ResolvedTableOptions = Required<TableOptions>;

const defaultTableOptions: ResolvedTableOptions = { color: false };

const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
// Resets the foreground colour only, so an outer style (e.g. a dimmed log line) survives.
const DEFAULT_FOREGROUND = '\u001b[39m';

const COLUMN_GAP = '  ';

/** Renders the human-readable table of the README, its summary line and any kept workspaces. */
export function renderTable(report: Report, options: TableOptions = {}): string {
  const { color } = resolveTableOptions(options);
  // Each message names its file: an invalid suite, or cases that did not finish.
  const errorLines = (report.errors ?? []).map((error) => `error: ${singleLine(error.message)}`);
  if (report.results.length === 0) return `${['no cases ran', ...errorLines].join('\n')}\n`;

  const rows = toRows(report);
  const widths = COLUMN_HEADERS.map((header, column) =>
    rows.reduce((widest, row) => Math.max(widest, visibleWidth(row[column] ?? '')), visibleWidth(header)),
  );
  const styleCell = (cell: string, column: number): string => {
    if (!color || column !== RESULT_COLUMN) return cell;
    return `${cell === 'PASS' ? GREEN : RED}${cell}${DEFAULT_FOREGROUND}`;
  };

  const lines = [
    formatLine(COLUMN_HEADERS, widths, (cell) => cell),
    formatLine(
      widths.map((width) => '-'.repeat(width)),
      widths,
      (cell) => cell,
    ),
    ...rows.map((row) => formatLine(row, widths, styleCell)),
    '',
    summaryLine(report.summary, rowUnit(report)),
    ...(report.baseline === undefined ? [] : renderBaselineSummary(report.baseline)),
  ];
  const label = caseLabeler(report.results);
  for (const result of report.results) {
    if (result.workspace !== undefined) lines.push(`kept workspace ${label(result)}: ${result.workspace}`);
  }
  for (const result of report.results) {
    for (const warning of result.warnings ?? []) lines.push(`warning ${label(result)}: ${warning}`);
  }
  lines.push(...errorLines);
  return `${lines.join('\n')}\n`;
}

function resolveTableOptions(options: TableOptions): ResolvedTableOptions {
  return { color: options.color ?? defaultTableOptions.color };
}

/**
 * Pads every cell but the last to its column's width, measured on the plain text so ANSI codes added by
 * `style` do not count, and drops the trailing spaces an empty last cell would leave.
 */
function formatLine(
  cells: readonly string[],
  widths: readonly number[],
  style: (cell: string, column: number) => string,
): string {
  const lastColumn = cells.length - 1;
  return cells
    .map((cell, column) => {
      const padding = column === lastColumn ? 0 : (widths[column] ?? 0) - visibleWidth(cell);
      return style(cell, column) + ' '.repeat(padding);
    })
    .join(COLUMN_GAP)
    .trimEnd();
}
