import { describe, expect, it } from 'vitest';
import { type Baseline, emptyBaseline } from './baseline-file.js';
import { obsoleteEntries, updateBaseline } from './update-baseline.js';

function existing(): Baseline {
  const baseline = emptyBaseline('majority');
  baseline.cases = {
    a: { passes: 1, trials: 1, outcome: 'passed' },
    gone: { passes: 0, trials: 1, outcome: 'failed' },
  };
  baseline.agents = {
    mine: { a: { passes: 3, trials: 3 }, b: { passes: 0, trials: 3 }, gone: { passes: 1, trials: 3 } },
  };
  return baseline;
}

describe('obsoleteEntries', () => {
  it('lists the entries whose case the suite no longer has, for every agent', () => {
    expect(obsoleteEntries(existing(), new Set(['a', 'b']))).toEqual([
      { caseId: 'gone' },
      { agentName: 'mine', caseId: 'gone' },
    ]);
    expect(obsoleteEntries(existing(), new Set(['a', 'b', 'gone']))).toEqual([]);
  });
});

describe('updateBaseline', () => {
  it('takes what ran, keeps what a filtered run left out, and drops obsolete entries', () => {
    const next = updateBaseline(
      existing(),
      [{ agentName: 'mine', caseId: 'b', passes: 2, trials: 3 }],
      new Set(['a', 'b']),
      'majority',
    );
    expect(next.cases).toEqual({ a: { passes: 1, trials: 1, outcome: 'passed' } });
    expect(next.agents).toEqual({ mine: { a: { passes: 3, trials: 3 }, b: { passes: 2, trials: 3 } } });
  });

  it('writes a first baseline with the outcome of single trials and the run rule', () => {
    const next = updateBaseline(
      undefined,
      [
        { caseId: 'a', passes: 0, trials: 1, outcome: 'agentError' },
        { caseId: 'b', passes: 1, trials: 2, outcome: 'passed' },
        { caseId: 'not-in-suite', passes: 1, trials: 1, outcome: 'passed' },
      ],
      new Set(['a', 'b']),
      'all',
    );
    expect(next).toEqual({
      passRule: 'all',
      cases: { a: { passes: 0, trials: 1, outcome: 'agentError' }, b: { passes: 1, trials: 2 } },
      agents: {},
    });
  });

  it('never changes the baseline it was given', () => {
    const before = existing();
    const copy = structuredClone(before);
    updateBaseline(before, [{ caseId: 'a', passes: 0, trials: 1, outcome: 'failed' }], new Set(['a']), 'majority');
    expect(before).toEqual(copy);
  });
});
