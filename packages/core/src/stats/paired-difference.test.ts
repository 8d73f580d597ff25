import { describe, expect, it } from 'vitest';
import { passRateDifference } from './paired-difference.js';

const tally = (trials: number, passes: number) => ({ trials, passes });

// Expected values worked by hand from the formulas in paired-difference.ts: Wilson's interval
// (z = 1.959964) of each side on each case, MOVER on each case, then over the cases.
describe('passRateDifference', () => {
  it('one case, 3/3 against 0/3: evidence', () => {
    // Wilson(1, 3) = [0.438510, 1]; Wilson(0, 3) = [0, 0.561490]; L = 1 − √(0.561490² + 0.561490²).
    expect(passRateDifference([{ a: tally(3, 3), b: tally(3, 0) }])).toEqual({
      difference: 1,
      low: expect.closeTo(0.205923, 5),
      high: 1,
    });
  });

  it('one case, 1/1 against 0/1: no evidence', () => {
    // Wilson(1, 1) = [0.206549, 1]; L = 1 − √2 · 0.793451.
    expect(passRateDifference([{ a: tally(1, 1), b: tally(1, 0) }]).low).toBeCloseTo(-0.122109, 5);
  });

  it('a case both sides pass adds its trials’ doubt, and halves the difference', () => {
    // Case 2 (3/3 both): d = 0 with d − l = u − d = 0.561490; L = 0.5 − √(0.794066² + 0.561490²) / 2.
    const result = passRateDifference([
      { a: tally(3, 3), b: tally(3, 0) },
      { a: tally(3, 3), b: tally(3, 3) },
    ]);
    expect(result.difference).toBe(0.5);
    expect(result.low).toBeCloseTo(0.013729, 5);
    expect(result.high).toBeCloseTo(0.780749, 5);
  });

  it('two cases of 2 trials that differ by half: no evidence', () => {
    // Wilson(1, 2) = [0.342372, 1], Wilson(0.5, 2) = [0.094531, 0.905469], Wilson(0, 2) = [0, 0.657628].
    const result = passRateDifference([
      { a: tally(2, 2), b: tally(2, 1) },
      { a: tally(2, 1), b: tally(2, 0) },
    ]);
    expect(result.difference).toBe(0.5);
    expect(result.low).toBeCloseTo(-0.046291, 5);
    expect(result.high).toBeCloseTo(0.78671, 5);
  });

  it('refuses no cases at all', () => {
    expect(() => passRateDifference([])).toThrow(RangeError);
  });
});
