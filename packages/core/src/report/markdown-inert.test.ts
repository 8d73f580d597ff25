import { describe, expect, it } from 'vitest';
import { buildComparison } from '../compare/build-comparison.js';
import { renderComparisonMarkdown } from '../compare/render-comparison-markdown.js';
import { cell, loaded } from '../compare/test-support/reports.js';
import { renderSweepMarkdown } from '../families/render-sweep.js';
import { HOSTILE_STRINGS, visibleText } from '../test-support/hostile-strings.js';
import { buildReport } from './build-report.js';
import type { ReportResult } from './model.js';
import { renderMarkdown } from './render-markdown.js';
import { renderScoreboardMarkdown } from './render-scoreboard-markdown.js';
import { buildScoreboard } from './scoreboard.js';
import { cellTexts, htmlText, markdownHtml, markupProblems } from './test-support/inert-markdown.js';
import { result } from './test-support/results.js';
import { trial } from './test-support/trials.js';

// Every Markdown renderer, fed each hostile string in every field it shows, rendered as GitHub would
// (raw HTML allowed): no markup but the renderer's own, and the string shown whole as text, inside
// the one cell or line it was put in.

/** The rendered page's problems, and whether `text` shows whole in one table cell. */
function inTable(markdown: string, text: string): { problems: string[]; inOneCell: boolean } {
  const html = markdownHtml(markdown);
  const shown = visibleText(text);
  return { problems: markupProblems(html), inOneCell: cellTexts(html).some((cell) => cell.includes(shown)) };
}

function rowCount(markdown: string): number {
  return [...markdownHtml(markdown).matchAll(/<tr>/g)].length;
}

describe.each(HOSTILE_STRINGS.map((text) => [JSON.stringify(text), text]))('hostile text %s', (_, hostile) => {
  it('stays inert in the report table (case id, suite, first failure)', () => {
    const rows: ReportResult[] = [
      result({ id: hostile, suite: hostile, file: 'bench/a.bench.json', passed: false, error: hostile }),
      result({ id: 'plain', suite: 'other', file: 'bench/b.bench.json' }),
    ];
    const markdown = renderMarkdown(buildReport(rows));
    expect(inTable(markdown, hostile)).toEqual({ problems: [], inOneCell: true });
    const cells = cellTexts(markdownHtml(markdown));
    expect(cells.filter((text) => text.includes(visibleText(hostile))).length).toBeGreaterThanOrEqual(2);
    expect(rowCount(markdown)).toBe(3);
  });

  it('stays inert in the scoreboard (agent name, case id, model, verdict)', () => {
    const usage = { inputTokens: 10, outputTokens: 5, model: hostile };
    const rows = [
      trial(hostile, hostile, 1, 'passed', 1000, usage),
      trial(hostile, hostile, 2, 'passed', 1000, usage),
      trial(hostile, 'plain', 1, 'passed', 1000, usage),
      trial(hostile, 'plain', 2, 'passed', 1000, usage),
      trial('other', hostile, 1, 'failed', 1000),
      trial('other', hostile, 2, 'failed', 1000),
      trial('other', 'plain', 1, 'failed', 1000),
      trial('other', 'plain', 2, 'passed', 1000),
    ];
    const scoreboard = buildScoreboard(rows);
    const markdown = renderScoreboardMarkdown(scoreboard);
    expect(inTable(markdown, hostile)).toEqual({ problems: [], inOneCell: true });
    // Agent table (2), grid (header, 2 cases).
    expect(rowCount(markdown)).toBe(3 + 3);
    // The verdict names both agents: its paragraph shows the name whole too.
    expect(scoreboard.verdict?.ranking).toContain(hostile);
    const verdict = markdownHtml(markdown).match(/<p><strong>[\s\S]*?<\/p>/)?.[0] ?? '';
    expect(htmlText(verdict)).toContain(visibleText(hostile));
  });

  it('stays inert in the comparison (agent name, case id, reason)', () => {
    const base = [...cell(hostile, hostile, 3, 3), ...cell(hostile, 'plain', 3, 3), ...cell('other', hostile, 1, 3)];
    const head = [...cell(hostile, hostile, 0, 3), ...cell(hostile, 'plain', 3, 3), ...cell('other', hostile, 1, 3)];
    const comparison = buildComparison(loaded('base.json', base), loaded('head.json', head));
    const markdown = renderComparisonMarkdown(comparison);
    const html = markdownHtml(markdown);
    expect(markupProblems(html)).toEqual([]);
    expect(cellTexts(html).some((text) => text.includes(visibleText(hostile)))).toBe(true);
    // The agent's line of the verdict list names it whole, in one item.
    const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => htmlText(match[1] ?? ''));
    expect(items.some((item) => item.includes(visibleText(hostile)))).toBe(true);
    expect(items).toHaveLength(comparison.agents.length);
  });

  it('stays inert in the family sweep (family, agent)', () => {
    const markdown = renderSweepMarkdown([
      {
        file: 'bench/f.bench.json',
        family: hostile,
        kind: 'pointerChase',
        size: 3,
        agent: hostile,
        trials: 1,
        passes: 1,
        calls: 3,
        idealCalls: 3,
        maxConcurrency: 1,
      },
    ]);
    expect(inTable(markdown, hostile)).toEqual({ problems: [], inOneCell: true });
    expect(rowCount(markdown)).toBe(2);
  });
});
