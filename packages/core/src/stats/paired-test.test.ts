import { describe, expect, it } from 'vitest';
import { type KeyedTally, pairedComparison } from './paired-test.js';

/** Tallies of one agent, one per key, from `[key, passes, trials]`. */
function tallies(...entries: Array<[key: string, passes: number, trials: number]>): KeyedTally[] {
  return entries.map(([key, passes, trials]) => ({ key, passes, trials }));
}

/** `count` cases where a passes every trial and b none. */
function aAlwaysBetter(count: number): [KeyedTally[], KeyedTally[]] {
  const keys = Array.from({ length: count }, (_, index) => `case-${index}`);
  return [keys.map((key) => ({ key, trials: 2, passes: 2 })), keys.map((key) => ({ key, trials: 2, passes: 0 }))];
}

describe('pairedComparison', () => {
  it('enumerates the sign patterns of a small example', () => {
    const a = tallies(['k1', 2, 2], ['k2', 2, 2], ['k3', 1, 2], ['k4', 1, 2], ['k5', 1, 2], ['only-a', 2, 2]);
    const b = tallies(['k4', 2, 2], ['k3', 0, 2], ['k2', 1, 2], ['k1', 0, 2], ['k5', 1, 2], ['only-b', 0, 2]);
    const comparison = pairedComparison(a, b);
    // Paired cases k1..k5 (only-a and only-b are not paired), differences a − b = 1, 0.5, 0.5, −0.5, 0.
    expect(comparison.cases).toEqual([
      { key: 'k1', a: 1, b: 0 },
      { key: 'k2', a: 1, b: 0.5 },
      { key: 'k3', a: 0.5, b: 0 },
      { key: 'k4', a: 0.5, b: 1 },
      { key: 'k5', a: 0.5, b: 0.5 },
    ]);
    // Mean difference (1 + 0.5 + 0.5 − 0.5 + 0)/5 = 0.3.
    expect(comparison.meanDifference).toBeCloseTo(0.3, 12);
    // k5's 0 drops out: 4 non-zero pairs, 16 patterns ±1 ±0.5 ±0.5 ±0.5, observed |Σ| = 1.5.
    // The three ±0.5 sum to 1.5 (1 way), 0.5 (3), −0.5 (3), −1.5 (1).
    // With +1: 2.5, 1.5 (×3), 0.5 (×3), −0.5 → |S| ≥ 1.5 in 1 + 3 = 4 patterns;
    // with −1: 0.5, −0.5 (×3), −1.5 (×3), −2.5 → 3 + 1 = 4. p = 8/16 = 0.5.
    expect(comparison).toMatchObject({ nonZeroPairs: 4, method: 'exact', pValue: 0.5, significant: false });
  });

  it('counts patterns that tie the observed sum despite rounding', () => {
    // Rates of 5 trials: differences 0.4, 0.2, 0.2, 0.2, −0.2, observed |Σ| = 0.8 (sums of 0.2s round unevenly).
    // The four ±0.2 sum to 0.8 (1), 0.4 (4), 0 (6), −0.4 (4), −0.8 (1).
    // With +0.4: 1.2, 0.8 (×4), 0.4 (×6), 0 (×4), −0.4 → 5 patterns with |S| ≥ 0.8;
    // with −0.4: 0.4, 0 (×4), −0.4 (×6), −0.8 (×4), −1.2 → 5. p = 10/32 = 0.3125.
    const a = tallies(['a', 3, 5], ['b', 2, 5], ['c', 4, 5], ['d', 1, 5], ['e', 3, 5]);
    const b = tallies(['a', 1, 5], ['b', 1, 5], ['c', 3, 5], ['d', 0, 5], ['e', 4, 5]);
    expect(pairedComparison(a, b).pValue).toBe(0.3125);
  });

  it('mixes wins and losses of whole cases', () => {
    // Differences 1, 1, 1, −1: observed 2. Sixteen patterns of four ±1 sum to ±4 (1 each), ±2 (4 each), 0 (6):
    // |S| ≥ 2 in 2 + 8 = 10. p = 10/16 = 0.625; mean (1 + 1 + 1 − 1)/4 = 0.5.
    const a = tallies(['w', 1, 1], ['x', 1, 1], ['y', 1, 1], ['z', 0, 1]);
    const b = tallies(['w', 0, 1], ['x', 0, 1], ['y', 0, 1], ['z', 1, 1]);
    expect(pairedComparison(a, b)).toMatchObject({ meanDifference: 0.5, pValue: 0.625 });
  });

  it('needs six cases of one-sided wins to be significant', () => {
    // All differences +1: only the all-plus and all-minus patterns reach |Σ| = m. p = 2/2^m.
    expect(pairedComparison(...aAlwaysBetter(5))).toMatchObject({ pValue: 0.0625, significant: false }); // 2/32
    expect(pairedComparison(...aAlwaysBetter(6))).toMatchObject({ pValue: 0.03125, significant: true }); // 2/64
    // The test is two-sided: b against a gives the same p and the opposite mean.
    const [a, b] = aAlwaysBetter(6);
    expect(pairedComparison(b, a)).toMatchObject({ meanDifference: -1, pValue: 0.03125, significant: true });
  });

  it('finds nothing without differences or without paired cases', () => {
    const same = tallies(['x', 1, 2], ['y', 2, 2]);
    expect(pairedComparison(same, same)).toMatchObject({ meanDifference: 0, nonZeroPairs: 0, pValue: 1 });
    expect(pairedComparison(tallies(['x', 2, 2]), tallies(['y', 0, 2]))).toEqual({
      cases: [],
      meanDifference: 0,
      pValue: 1,
      method: 'exact',
      nonZeroPairs: 0,
      significant: false,
    });
  });

  it('samples above 20 non-zero pairs, with the +1 correction', () => {
    // 25 one-sided wins: a random pattern matches |Σ| = 25 only if all 25 signs agree (chance 2^−24),
    // so none of the 20,000 draws does and p = (1 + 0)/(1 + 20,000).
    const comparison = pairedComparison(...aAlwaysBetter(25));
    expect(comparison).toMatchObject({ method: 'monteCarlo', nonZeroPairs: 25, pValue: 1 / 20_001, significant: true });
    // Exactly 20 non-zero pairs are still enumerated: p = 2/2^20.
    expect(pairedComparison(...aAlwaysBetter(20))).toMatchObject({ method: 'exact', pValue: 2 / 2 ** 20 });
  });

  it('samples reproducibly and close to the exact p-value', () => {
    // 21 cases of 3 trials, none a tie: a passes 0 of case i when 4 divides i, else 2; b passes 3 when 3 divides
    // i, else 1. Differences are −1, ±1/3, never 0, so all 21 pairs count and 2^21 patterns exist.
    const a: KeyedTally[] = [];
    const b: KeyedTally[] = [];
    for (let i = 0; i < 21; i++) {
      a.push({ key: `c${i}`, trials: 3, passes: i % 4 === 0 ? 0 : 2 });
      b.push({ key: `c${i}`, trials: 3, passes: i % 3 === 0 ? 3 : 1 });
    }
    const sampled = pairedComparison(a, b);
    const exact = pairedComparison(a, b, { maxExactPairs: 21 });
    expect(sampled).toMatchObject({ method: 'monteCarlo', nonZeroPairs: 21 });
    expect(exact.method).toBe('exact');
    // Enumerated apart in integers (differences times 3, observed |Σ| = 5): 1,095,852 of the 2^21 patterns.
    expect(exact.pValue).toBeCloseTo(1_095_852 / 2 ** 21, 12);
    // The Monte Carlo p is a binomial share of 20,000 draws: its standard error is √(p(1−p)/20,000) ≤ 0.0036.
    expect(Math.abs(sampled.pValue - exact.pValue)).toBeLessThan(
      4 * Math.sqrt((exact.pValue * (1 - exact.pValue)) / 20_000),
    );
    expect(pairedComparison(a, b).pValue).toBe(sampled.pValue);
    expect(pairedComparison(a, b, { seed: 7 }).pValue).not.toBe(sampled.pValue);
  });

  it('refuses impossible tallies and options', () => {
    expect(() => pairedComparison(tallies(['x', 3, 2]), [])).toThrow(
      new RangeError('a[0].passes (3) exceeds a[0].trials (2)'),
    );
    expect(() => pairedComparison([], [], { maxExactPairs: 31 })).toThrow(RangeError);
    expect(() => pairedComparison([], [], { draws: 0 })).toThrow(RangeError);
  });
});
