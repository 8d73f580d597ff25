import { describe, expect, it } from 'vitest';
import { MIN_CASES_FOR_CORRELATION, passRateDifference } from './paired-difference.js';

const tally = (trials: number, passes: number) => ({ trials, passes });

// Expected values worked by hand from the formulas in paired-difference.ts: Wilson's interval
// (z = 1.959964) of each side's clustered rate, then MOVER.
describe('passRateDifference', () => {
  it('one case, 3/3 against 0/3: Wilson over its trials on each side', () => {
    // Wilson(1, 3) = [0.438510, 1]; Wilson(0, 3) = [0, 0.561490]; L = 1 − √(0.561490² + 0.561490²).
    const result = passRateDifference([{ a: tally(3, 3), b: tally(3, 0) }]);
    expect(result.difference).toBe(1);
    expect(result.low).toBeCloseTo(0.205923, 5);
    expect(result.high).toBe(1);
    expect(result.correlation).toBe(0);
  });

  it('two cases that differ by the same amount claim no certainty: r is taken as 0', () => {
    // a = 3/4 and b = 1/4, each with design effect 4/3, so 3 effective trials:
    // Wilson(0.75, 3) = [0.256093, 0.963159], Wilson(0.25, 3) = [0.036841, 0.743907].
    const result = passRateDifference([
      { a: tally(2, 2), b: tally(2, 1) },
      { a: tally(2, 1), b: tally(2, 0) },
    ]);
    expect(result.difference).toBe(0.5);
    expect(result.low).toBeCloseTo(-0.19849, 5);
    expect(result.high).toBeCloseTo(0.801452, 5);
    expect(result.correlation).toBe(0);
  });

  it(`from ${MIN_CASES_FOR_CORRELATION} cases, the correlation of per-case rates narrows the interval`, () => {
    // a: five cases at 2/2, five at 1/2 (0.75); b: five at 1/2, four at 0/2, one at 1/2 (0.3);
    // r = 0.816497 between the per-case rates.
    const pairs = [
      ...Array.from({ length: 5 }, () => ({ a: tally(2, 2), b: tally(2, 1) })),
      ...Array.from({ length: 4 }, () => ({ a: tally(2, 1), b: tally(2, 0) })),
      { a: tally(2, 1), b: tally(2, 1) },
    ];
    const result = passRateDifference(pairs);
    expect(result.difference).toBeCloseTo(0.45, 10);
    expect(result.correlation).toBeCloseTo(0.816497, 5);
    expect(result.low).toBeCloseTo(0.317426, 5);
    expect(result.high).toBeCloseTo(0.540013, 5);
  });

  it('refuses no cases at all', () => {
    expect(() => passRateDifference([])).toThrow(RangeError);
  });
});
