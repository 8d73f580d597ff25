import { describe, expect, it } from 'vitest';
import { cellChange } from './cell-change.js';

describe('cellChange', () => {
  it('counts every flip when both sides ran one trial', () => {
    expect(cellChange({ trials: 1, passes: 1 }, { trials: 1, passes: 0 })).toEqual({
      verdict: 'regression',
      pWorse: 0,
      pBetter: 1,
      method: 'flip',
    });
    expect(cellChange({ trials: 1, passes: 0 }, { trials: 1, passes: 1 }).verdict).toBe('improvement');
    expect(cellChange({ trials: 1, passes: 0 }, { trials: 1, passes: 0 }).verdict).toBe('unchanged');
    expect(cellChange({ trials: 1, passes: 1 }, { trials: 1, passes: 1 }).verdict).toBe('unchanged');
  });

  // Hand-computed: head passes X ~ Hypergeometric(6 trials, m passes in all, 3 drawn), C(6,3) = 20.
  it('calls 3/3 → 0/3 a regression: P(X=0) = 1/20, mid-p 1/40', () => {
    const change = cellChange({ trials: 3, passes: 3 }, { trials: 3, passes: 0 });
    expect(change.verdict).toBe('regression');
    expect(change.method).toBe('fisherMidP');
    expect(change.pWorse).toBeCloseTo(0.025, 12);
    expect(change.pBetter).toBeCloseTo(0.975, 12);
  });

  it('calls 3/3 → 2/3 within noise: P(X=2) = P(X=3) = 10/20, mid-p 1/4', () => {
    const change = cellChange({ trials: 3, passes: 3 }, { trials: 3, passes: 2 });
    expect(change.verdict).toBe('unchanged');
    expect(change.pWorse).toBeCloseTo(0.25, 12);
    expect(change.pBetter).toBeCloseTo(0.75, 12);
  });

  it('calls 3/3 → 1/3 within noise: P(X=1) = 4/20, mid-p 1/10', () => {
    const change = cellChange({ trials: 3, passes: 3 }, { trials: 3, passes: 1 });
    expect(change.verdict).toBe('unchanged');
    expect(change.pWorse).toBeCloseTo(0.1, 12);
  });

  it('calls 0/4 → 4/4 an improvement: P(X=4) = 1/C(8,4) = 1/70, mid-p 1/140', () => {
    const change = cellChange({ trials: 4, passes: 0 }, { trials: 4, passes: 4 });
    expect(change.verdict).toBe('improvement');
    expect(change.pBetter).toBeCloseTo(1 / 140, 12);
    expect(change.pWorse).toBeCloseTo(1 - 1 / 140, 12);
  });

  // 5/10 → 1/10: m = 6 of 20, X ~ Hypergeom(20, 6, 10), C(20,10) = 184756.
  // P(X=0) = C(6,0)·C(14,10) / 184756 = 1001 / 184756, P(X=1) = C(6,1)·C(14,9) = 6·2002 = 12012.
  it('weighs unequal counts: 5/10 → 1/10 has mid-p (1001 + 6006) / 184756', () => {
    const change = cellChange({ trials: 10, passes: 5 }, { trials: 10, passes: 1 });
    expect(change.pWorse).toBeCloseTo((1001 + 6006) / 184_756, 12);
    expect(change.verdict).toBe('regression');
  });

  // Base 3/3, head 0/1: m = 3 of 4, one drawn; P(X=0) = 1/4, mid-p 1/8.
  it('tests a single head trial against several base trials', () => {
    const change = cellChange({ trials: 3, passes: 3 }, { trials: 1, passes: 0 });
    expect(change.method).toBe('fisherMidP');
    expect(change.pWorse).toBeCloseTo(0.125, 12);
    expect(change.verdict).toBe('unchanged');
  });

  it('sees no change when every trial on both sides ended alike', () => {
    expect(cellChange({ trials: 5, passes: 5 }, { trials: 5, passes: 5 })).toMatchObject({
      verdict: 'unchanged',
      pWorse: 0.5,
      pBetter: 0.5,
    });
    expect(cellChange({ trials: 5, passes: 0 }, { trials: 3, passes: 0 }).verdict).toBe('unchanged');
  });

  it('refuses tallies that cannot be', () => {
    expect(() => cellChange({ trials: 0, passes: 0 }, { trials: 1, passes: 1 })).toThrow(RangeError);
    expect(() => cellChange({ trials: 2, passes: 3 }, { trials: 1, passes: 1 })).toThrow(/exceeds/);
  });
});
