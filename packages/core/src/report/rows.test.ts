import { describe, expect, it } from 'vitest';
import { formatDuration, singleLine, summaryLine, truncate, visibleWidth } from './rows.js';

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [892, '892ms'],
    [9999, '9999ms'],
    // Rounds before choosing the unit, so 9999.6 ms is not shown as "10000ms".
    [9999.6, '10.0s'],
    [10_000, '10.0s'],
    [12_345, '12.3s'],
    [600_000, '600.0s'],
  ])('%d ms → %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe('summaryLine', () => {
  it('uses the singular for one case', () => {
    expect(summaryLine({ total: 1, passed: 0, failed: 1 })).toBe('1 case: 0 passed, 1 failed');
    expect(summaryLine({ total: 3, passed: 2, failed: 1 })).toBe('3 cases: 2 passed, 1 failed');
  });

  it('says how many of the failed cases did not run', () => {
    expect(summaryLine({ total: 3, passed: 1, failed: 2, notRun: 2 })).toBe('3 cases: 1 passed, 2 failed (2 not run)');
  });
});

describe('visibleWidth', () => {
  it.each([
    ['ascii', 5],
    ['写入', 4],
    ['😀', 2],
    ['e\u0301', 1],
    ['한국어', 6],
    ['', 0],
    ['\u001b[31mFAIL\u001b[39m', 4],
    ['a\tb', 2],
    ['plain ASCII, with punctuation: ~!@#$%^&*()', 42],
  ])('%j takes %d columns', (text, width) => {
    expect(visibleWidth(text)).toBe(width);
  });
});

describe('singleLine', () => {
  it('folds line breaks and their indentation into one space', () => {
    expect(singleLine('expected 1\r\n    received 2\n\n')).toBe('expected 1 received 2');
  });

  it('replaces other control characters', () => {
    expect(singleLine('a\tb\u001b[31mc')).toBe('a b [31mc');
  });
});

describe('truncate', () => {
  it('keeps text up to the limit', () => {
    expect(truncate('x'.repeat(80), 80)).toBe('x'.repeat(80));
  });

  it('ends longer text with an ellipsis within the limit', () => {
    const cut = truncate('x'.repeat(81), 80);
    expect(Array.from(cut)).toHaveLength(80);
    expect(cut.endsWith('x…')).toBe(true);
  });

  it('counts terminal columns: wide characters take two', () => {
    expect(truncate('😀😀😀', 4)).toBe('😀…');
    expect(truncate('写入文件', 5)).toBe('写入…');
    expect(truncate('写入文件', 8)).toBe('写入文件');
  });

  it('never splits a surrogate pair, a letter from its combining marks, or a joined emoji', () => {
    expect(truncate('😀😀😀', 2)).toBe('…');
    expect(truncate('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
    expect(truncate('👩‍💻👩‍💻', 3)).toBe('👩‍💻…');
  });
});
