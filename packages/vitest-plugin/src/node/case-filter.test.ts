import type { CaseLocation, Suite } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { caseMatcher, narrowCases, unmatchedPatterns } from './case-filter.js';

const IDS = ['fix-bug', 'fix-bug-2', '(paren', 'a*b', 'axb', '[x]', '.hidden'];

describe('caseMatcher', () => {
  it.each([
    [['fix-bug'], ['fix-bug']],
    [['fix-*'], ['fix-bug', 'fix-bug-2']],
    [['(paren'], ['(paren']],
    // An id written like a glob matches itself, and the glob what it matches.
    [['a*b'], ['a*b', 'axb']],
    [['[x]'], ['[x]']],
    [['*'], IDS],
  ])('%j selects %j', (patterns, selected) => {
    const matches = caseMatcher(patterns);
    expect(IDS.filter((id) => matches?.(id))).toEqual(selected);
  });

  it('selects every case without patterns', () => {
    expect(caseMatcher(undefined)).toBeUndefined();
    expect(caseMatcher([])).toBeUndefined();
  });
});

describe('unmatchedPatterns', () => {
  it('names the patterns that select nothing, in order', () => {
    const suite = { name: 's', cases: IDS.map((id) => ({ id, prompt: 'p', checks: [] })) } as unknown as Suite;
    expect(unmatchedPatterns(['fix-bu', 'fix-bug', 'nope*', '(paren'], [suite])).toEqual(['fix-bu', 'nope*']);
  });
});

describe('narrowCases', () => {
  it('keeps the selected cases with their own locations', () => {
    const suite = {
      name: 's',
      cases: ['a', 'b', 'c'].map((id) => ({ id, prompt: 'p', checks: [] })),
    } as unknown as Suite;
    const locations = [1, 2, 3].map((line) => ({ line, column: 0 })) as CaseLocation[];
    const narrowed = narrowCases(suite, locations, caseMatcher(['c', 'a']));
    expect(narrowed.suite.cases.map((testCase) => testCase.id)).toEqual(['a', 'c']);
    expect(narrowed.locations.map((location) => location.line)).toEqual([1, 3]);
    expect(suite.cases).toHaveLength(3);
  });
});
