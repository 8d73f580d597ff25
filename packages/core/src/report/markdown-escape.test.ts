import { describe, expect, it } from 'vitest';
import { HOSTILE_STRINGS, visibleText } from '../test-support/hostile-strings.js';
import { escapeMarkdown, escapeMarkdownLine } from './markdown-escape.js';
import { cellTexts, htmlText, markdownHtml, markupProblems } from './test-support/inert-markdown.js';

describe.each(HOSTILE_STRINGS.map((text) => [JSON.stringify(text), text]))('escaping %s', (_, hostile) => {
  it('shows exactly its characters as a line of its own', () => {
    const html = markdownHtml(`intro\n\n${escapeMarkdownLine(hostile)}\n\nafter\n`);
    expect(markupProblems(html)).toEqual([]);
    expect(html.match(/<[a-z][^>]*>/g)).toEqual(['<p>', '<p>', '<p>']);
    expect(htmlText(html)).toBe(`intro ${visibleText(hostile)} after`);
  });

  it('shows exactly its characters in one table cell, and the row keeps its cells', () => {
    const html = markdownHtml(`| a | b | c |\n| --- | --- | --- |\n| x | ${escapeMarkdown(hostile)} | y |\n`);
    expect(markupProblems(html)).toEqual([]);
    expect(cellTexts(html)).toEqual(['a', 'b', 'c', 'x', visibleText(hostile), 'y']);
  });
});

describe('escapeMarkdown', () => {
  it('leaves plain text, numbers and paths as they are', () => {
    expect(escapeMarkdown('0.25 -2 fix-bug bench/a.bench.json 1/3 · 1.2s')).toBe(
      '0.25 -2 fix-bug bench/a.bench.json 1/3 · 1.2s',
    );
  });

  it('escapes what starts a block only where the text starts a line', () => {
    expect(escapeMarkdown('- item')).toBe('- item');
    expect(escapeMarkdownLine('- item')).toBe('\\- item');
    expect(escapeMarkdownLine('12. item')).toBe('12\\. item');
    expect(escapeMarkdownLine('0.025')).toBe('0.025');
  });
});
