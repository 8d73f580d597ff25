import { describe, expect, it } from 'vitest';
import { judgeCell } from './judge-cell.js';

const rules = { rule: 'majority', baseRule: 'majority' } as const;

describe('judgeCell', () => {
  it('at one trial, every pass → fail is a regression and every fail → pass an improvement', () => {
    expect(judgeCell({ passes: 1, trials: 1 }, { passes: 0, trials: 1 }, rules)).toEqual({
      judgement: { verdict: 'regression', passes: 1, trials: 1 },
      passed: false,
      message: 'regressed against the baseline: 1/1 → 0/1',
    });
    expect(judgeCell({ passes: 0, trials: 1 }, { passes: 1, trials: 1 }, rules)).toEqual({
      judgement: { verdict: 'improvement', passes: 0, trials: 1 },
      passed: true,
      message: 'improved on the baseline: 0/1 → 1/1; update it with -u',
    });
  });

  it('a cell that failed and still fails is a known failure, and passes', () => {
    expect(judgeCell({ passes: 0, trials: 1 }, { passes: 0, trials: 1 }, rules)).toEqual({
      judgement: { verdict: 'knownFailure', passes: 0, trials: 1 },
      passed: true,
      message: 'known failure: 0/1 → 0/1',
    });
  });

  it('with trials, tells a true regression (3/3 → 0/3) from a flip by chance (3/3 → 2/3, 3/3 → 1/3)', () => {
    const regressed = judgeCell({ passes: 3, trials: 3 }, { passes: 0, trials: 3 }, rules);
    expect(regressed.passed).toBe(false);
    expect(regressed.judgement.verdict).toBe('regression');
    expect(regressed.judgement.p).toBeCloseTo(0.025, 10);
    expect(regressed.message).toBe('regressed against the baseline: 3/3 → 0/3 (p = 0.025)');

    expect(judgeCell({ passes: 3, trials: 3 }, { passes: 2, trials: 3 }, rules)).toEqual({
      judgement: { verdict: 'same', passes: 3, trials: 3 },
      passed: true,
      message: undefined,
    });
    // 1/3 fails the majority rule, yet is within noise of 3/3: not a regression.
    expect(judgeCell({ passes: 3, trials: 3 }, { passes: 1, trials: 3 }, rules)).toEqual({
      judgement: { verdict: 'same', passes: 3, trials: 3 },
      passed: true,
      message: 'fails by its rule, but within noise of the baseline: 3/3 → 1/3',
    });
  });

  it('judges a cell without an entry by its own rule', () => {
    expect(judgeCell(undefined, { passes: 1, trials: 3 }, rules)).toEqual({
      judgement: { verdict: 'new' },
      passed: false,
      message: undefined,
    });
    expect(judgeCell(undefined, { passes: 2, trials: 3 }, rules).passed).toBe(true);
  });

  it('tells a known failure by the rule the baseline was written with', () => {
    // 2/3 failed under "all" when written; 2/3 now fails "all" too: a known failure.
    const judged = judgeCell({ passes: 2, trials: 3 }, { passes: 2, trials: 3 }, { rule: 'all', baseRule: 'all' });
    expect(judged.judgement.verdict).toBe('knownFailure');
    expect(judged.passed).toBe(true);
  });
});
