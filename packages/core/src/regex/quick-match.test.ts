import { describe, expect, it } from 'vitest';
import { cannotBacktrack, quickMatch } from './quick-match.js';

describe('quickMatch', () => {
  it('says whether a pattern matches, with its flags, and a fresh lastIndex each time', () => {
    const text = 'building…\nPASS: 12 tests\n';
    expect(quickMatch('PASS:\\s+\\d+ tests', undefined, text)).toEqual({ status: 'matched' });
    expect(quickMatch('^PASS', undefined, text)).toEqual({ status: 'unmatched' });
    expect(quickMatch('^PASS', 'm', text)).toEqual({ status: 'matched' });
    expect(quickMatch('\\p{Lu}{4}', 'u', text)).toEqual({ status: 'matched' });
    for (const flags of ['g', 'g', 'y', 'y']) expect(quickMatch('PASS', flags, 'PASS')).toEqual({ status: 'matched' });
  });

  it('gives up on a catastrophically backtracking match at its budget, and matches again after', () => {
    const started = performance.now();
    expect(quickMatch('^(a+)+$', undefined, `${'a'.repeat(40)}!`, 20)).toBeUndefined();
    // About 2^40 steps stopped after 20 ms, give or take a loaded machine's scheduling.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(quickMatch('ok$', undefined, 'still ok')).toEqual({ status: 'matched' });
  });

  it('reports invalid patterns and flags as failures, with the engine message', () => {
    expect(quickMatch('(', undefined, 'x')).toEqual({
      status: 'failed',
      message: 'Invalid regular expression: /(/: Unterminated group',
    });
    expect(quickMatch('x', 'q', 'x')).toMatchObject({ status: 'failed', message: expect.stringContaining('flags') });
  });

  it('leaves no part of the text in the builtins it matched with', () => {
    // The context's RegExp is its own: the caller's legacy statics never see the text.
    /(?:)/.test('');
    expect(quickMatch('secret-(\\d+)', undefined, 'the output holds secret-42')).toEqual({ status: 'matched' });
    expect(RegExp.lastMatch).toBe('');
    expect(RegExp.$1).toBe('');
  });

  it('matches a pattern that cannot backtrack on this thread, and leaves its text in no builtin either', () => {
    /(?:)/.test('');
    expect(quickMatch('secret-(\\d)\\b', undefined, 'the output holds secret-4 and more')).toEqual({
      status: 'matched',
    });
    expect(RegExp.lastMatch).toBe('');
    expect(RegExp.$1).toBe('');
    expect(quickMatch('^done$', 'm', 'building\ndone\n')).toEqual({ status: 'matched' });
    expect(quickMatch('\\bDONE\\b', 'i', 'undone')).toEqual({ status: 'unmatched' });
  });
});

describe('cannotBacktrack', () => {
  it('takes plain sequences of atoms, classes, groups and escapes', () => {
    for (const pattern of ['\\bdone\\b', 'All tests passed', '^PASS [0-9]\\.$', '(ok)\\s\\[x\\]', '\\\\n']) {
      expect(cannotBacktrack(pattern), pattern).toBe(true);
    }
  });

  it('sends quantifiers, alternation, backreferences and anything unsure the bounded way', () => {
    for (const pattern of [
      '^(a+)+$',
      'a*',
      'x?',
      'a{2}',
      'yes|no',
      '(a)\\1',
      '(?<n>a)\\k<n>',
      '(?:a)',
      '\\p{Lu}',
      '\\',
    ]) {
      expect(cannotBacktrack(pattern), pattern).toBe(false);
    }
  });
});
