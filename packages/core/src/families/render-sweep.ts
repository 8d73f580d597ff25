import { escapeMarkdown } from '../report/markdown-escape.js';
import type { SweepRow } from './sweep.js';

// The sweep as a terminal table and as Markdown rows, from the same cells.

const HEADERS = ['family', 'size', 'agent', 'calls', 'ideal', 'turns', 'max conc.', 'faults', 'result'] as const;
// Which columns hold numbers, right-aligned in both renderings.
const NUMERIC = new Set<string>(['size', 'calls', 'ideal', 'turns', 'max conc.', 'faults']);

/** The text of each column of one row; `-` where the row has no such figure. */
function cells(row: SweepRow): string[] {
  return [
    row.family,
    String(row.size),
    row.agent ?? '-',
    String(row.calls),
    String(row.idealCalls),
    row.turns === undefined ? '-' : String(row.turns),
    String(row.maxConcurrency),
    row.faults === undefined ? '-' : `${row.faultsRecovered ?? 0}/${row.faults}`,
    result(row),
  ];
}

/** `pass` / `FAIL` for one trial, `passes/trials` for several; a lookup that missed values says so. */
function result(row: SweepRow): string {
  const verdict = row.trials === 1 ? (row.passes === 1 ? 'pass' : 'FAIL') : `${row.passes}/${row.trials}`;
  return row.allRetrieved === false ? `${verdict} (values missing)` : verdict;
}

/** The sweep table for the terminal, after the gz-bench table and scoreboard. */
export function renderSweep(rows: readonly SweepRow[]): string {
  const table = [HEADERS as readonly string[], ...rows.map(cells)];
  const widths = HEADERS.map((_, column) => Math.max(...table.map((line) => (line[column] ?? '').length)));
  const lines = table.map((line) =>
    line
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return NUMERIC.has(HEADERS[column] ?? '') ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd(),
  );
  return `gz-bench sweep (calls, turns and max concurrency are medians over trials; faults are recovered/met)\n${lines.join('\n')}\n`;
}

/** The sweep as a Markdown section: a heading and one table row per (family, size, agent). */
export function renderSweepMarkdown(rows: readonly SweepRow[]): string {
  const line = (values: readonly string[]) => `| ${values.join(' | ')} |`;
  return [
    '## gz-bench sweep',
    '',
    line(HEADERS),
    line(HEADERS.map((header) => (NUMERIC.has(header) ? '---:' : '---'))),
    ...rows.map((row) => line(cells(row).map(escapeMarkdown))),
    '',
    'Calls, turns and max concurrency are medians over trials; faults are recovered/met.',
    '',
  ].join('\n');
}
