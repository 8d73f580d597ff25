import { escapeMarkdown, escapeMarkdownLine } from '../report/markdown-escape.js';
import { singleLine } from '../report/rows.js';
import { labeler } from './build-comparison.js';
import { comparisonTables, headline, pairedText, ruleLine, type TextTable } from './comparison-text.js';
import type { Comparison } from './model.js';

/** Rows a table of a pull-request comment shows; GitHub refuses comments over 65,536 characters. */
export const MARKDOWN_MAX_ROWS = 100;

const VERDICT_ICONS = { regression: '🔴', improvement: '🟢', 'within noise': '⚪' } as const;

/**
 * Renders a comparison as GitHub-flavoured markdown for a pull-request comment or a job summary: the
 * verdict first, each agent's, then the tables. Every name from a report is escaped, so no case id or
 * agent name can end a cell or turn into markup; long tables are cut with a line that says so.
 */
export function renderComparisonMarkdown(comparison: Comparison): string {
  const label = labeler([...comparison.cells, ...comparison.newCells, ...comparison.removedCells]);
  const lines = [
    '## gz-bench compare',
    '',
    `${VERDICT_ICONS[comparison.verdict]} **${capitalise(comparison.verdict)}**`,
    '',
    escapeMarkdownLine(headline(comparison).replace(/^gz-bench compare: /, '')),
    '',
  ];
  for (const agent of comparison.agents) {
    const why = `${singleLine(agent.reason)} (${pairedText(agent.paired)})`;
    lines.push(
      `- ${VERDICT_ICONS[agent.verdict]} **${escapeMarkdown(singleLine(agent.name))}**: ${escapeMarkdown(why)}`,
    );
  }
  if (comparison.agents.length === 0) lines.push(escapeMarkdownLine(comparison.reason));
  lines.push('');
  for (const table of comparisonTables(comparison, label)) {
    if (table.rows.length === 0 && table.note === undefined) continue;
    lines.push(`### ${table.title}`, '');
    if (table.rows.length > 0) lines.push(...markdownTable(table), '');
    if (table.note !== undefined) lines.push(escapeMarkdownLine(table.note), '');
  }
  lines.push(escapeMarkdownLine(ruleLine(comparison)));
  return `${lines.join('\n')}\n`;
}

function markdownTable(table: TextTable): string[] {
  const shown = table.rows.slice(0, MARKDOWN_MAX_ROWS);
  const lines = [
    row(table.headers.map(escapeMarkdown)),
    row(table.headers.map(() => '---')),
    ...shown.map((cells) => row(cells.map((cell) => escapeMarkdown(cell)))),
  ];
  const hidden = table.rows.length - shown.length;
  if (hidden > 0) lines.push('', `…and ${hidden} more rows: \`gz-bench compare --json\` has them all.`);
  return lines;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
