import { visibleWidth } from '../report/rows.js';
import { labeler } from './build-comparison.js';
import { agentLines, comparisonTables, headline, overallLine, ruleLine, type TextTable } from './comparison-text.js';
import type { Comparison, ComparisonVerdict } from './model.js';

/** Options of `renderComparison`. */
export interface ComparisonRenderOptions {
  /**
   * Colour the verdicts (regression red, improvement green) with ANSI codes.
   * @default false
   */
  color?: boolean;
}

const COLUMN_GAP = '  ';
const COLORS: Record<ComparisonVerdict, string> = {
  regression: '\u001b[31m',
  improvement: '\u001b[32m',
  'within noise': '',
};
// Resets the foreground colour only, so an outer style survives.
const DEFAULT_FOREGROUND = '\u001b[39m';

/**
 * Renders a comparison for a terminal: the cells that flipped or changed (flips first), new and removed
 * cells, errors, duration, token and cost deltas, then each agent's verdict and the overall one.
 * Sections with nothing to show are left out. Columns line up by display width.
 */
export function renderComparison(comparison: Comparison, options: ComparisonRenderOptions = {}): string {
  const color = options.color ?? false;
  const label = labeler([...comparison.cells, ...comparison.newCells, ...comparison.removedCells]);
  const lines = [headline(comparison), ruleLine(comparison), ''];
  for (const table of comparisonTables(comparison, label)) {
    if (table.rows.length === 0 && table.note === undefined) continue;
    lines.push(`${table.title}:`, ...(table.rows.length > 0 ? tableLines(table) : []));
    if (table.note !== undefined) lines.push(table.note);
    lines.push('');
  }
  lines.push(...agentLines(comparison), paint(overallLine(comparison), comparison.verdict, color));
  return `${lines.join('\n')}\n`;
}

function tableLines(table: TextTable): string[] {
  const all = [table.headers, ...table.rows];
  const widths = table.headers.map((_, column) =>
    all.reduce((widest, row) => Math.max(widest, visibleWidth(row[column] ?? '')), 0),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - visibleWidth(cell)))
      .join(COLUMN_GAP)
      .trimEnd();
  return [line(table.headers), line(widths.map((width) => '-'.repeat(width))), ...table.rows.map(line)].map(
    (text) => `  ${text}`,
  );
}

function paint(text: string, verdict: ComparisonVerdict, color: boolean): string {
  const start = COLORS[verdict];
  return color && start !== '' ? `${start}${text}${DEFAULT_FOREGROUND}` : text;
}
