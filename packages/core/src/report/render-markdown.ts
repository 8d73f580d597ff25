import { escapeMarkdown } from './markdown-escape.js';
import type { Report } from './model.js';
import { COLUMN_HEADERS, rowUnit, summaryLine, toRows } from './rows.js';

/** Renders the report as a GitHub-flavoured markdown table and summary line, e.g. for a CI job summary. */
export function renderMarkdown(report: Report): string {
  if (report.results.length === 0) return 'no cases ran\n';
  const lines = [
    formatRow(COLUMN_HEADERS),
    formatRow(COLUMN_HEADERS.map(() => '---')),
    ...toRows(report).map((row) => formatRow(row.map(escapeMarkdown))),
    '',
    summaryLine(report.summary, rowUnit(report)),
  ];
  return `${lines.join('\n')}\n`;
}

function formatRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Re-exported from its one home, markdown-escape.ts, for modules that import it from here. */
export { escapeMarkdown } from './markdown-escape.js';
