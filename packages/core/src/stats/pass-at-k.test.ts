import { describe, expect, it } from 'vitest';
import { passAtK, passHatK } from './pass-at-k.js';

describe('passAtK', () => {
  // n = 5 trials, c = 2 passes, so n − c = 3 failures; C(5, k) = 5, 10, 10, 5, 1 for k = 1..5.
  it.each([
    [1, 0.4], // 1 − C(3,1)/C(5,1) = 1 − 3/5 = 2/5
    [2, 0.7], // 1 − C(3,2)/C(5,2) = 1 − 3/10 = 7/10
    [3, 0.9], // 1 − C(3,3)/C(5,3) = 1 − 1/10 = 9/10
    [4, 1], // C(3,4) = 0: any 4 of 5 trials hold a pass
    [5, 1], // C(3,5) = 0
  ])('n=5 c=2 k=%i is %d', (k, expected) => {
    expect(passAtK(5, 2, k)).toBeCloseTo(expected, 12);
  });

  it('is the pass rate at k = 1', () => {
    // 1 − (n−c)/n = c/n = 7/12
    expect(passAtK(12, 7, 1)).toBe(7 / 12);
    expect(passAtK(3, 2, 1)).toBe(2 / 3);
  });

  it('is 0 without passes and 1 when every trial passed', () => {
    expect(passAtK(4, 0, 3)).toBe(0); // C(4,3)/C(4,3) = 1
    expect(passAtK(4, 4, 1)).toBe(1); // C(0,1) = 0
  });

  it('stays finite and exact for counts whose factorials overflow', () => {
    // 1 − C(999,10)/C(1000,10) = 1 − (1000−10)/1000 = 10/1000: each product term cancels but the last.
    expect(passAtK(1000, 1, 10)).toBeCloseTo(0.01, 12);
    // 200! overflows a double; C(199,100)/C(200,100) = (200−100)/200 = 1/2.
    expect(passAtK(200, 1, 100)).toBeCloseTo(0.5, 12);
  });

  it.each([
    [5, 2, 6, 'k (6) exceeds n (5)'],
    [5, 2, 0, 'k must be a whole number of at least 1'],
    [5, 6, 1, 'c (6) exceeds n (5)'],
    [0, 0, 1, 'n must be a whole number of at least 1'],
    [5, -1, 1, 'c must be a whole number of at least 0'],
    [5, 2.5, 1, 'c must be a whole number'],
    [Number.NaN, 1, 1, 'n must be a whole number'],
  ])('refuses n=%d c=%d k=%d', (n, c, k, message) => {
    expect(() => passAtK(n, c, k)).toThrow(RangeError);
    expect(() => passAtK(n, c, k)).toThrow(message);
    expect(() => passHatK(n, c, k)).toThrow(RangeError);
  });
});

describe('passHatK', () => {
  // n = 5, c = 2: C(2, k)/C(5, k).
  it.each([
    [1, 0.4], // C(2,1)/C(5,1) = 2/5
    [2, 0.1], // C(2,2)/C(5,2) = 1/10
    [3, 0], // C(2,3) = 0: no 3 trials all pass
    [4, 0],
    [5, 0],
  ])('n=5 c=2 k=%i is %d', (k, expected) => {
    expect(passHatK(5, 2, k)).toBeCloseTo(expected, 12);
  });

  it('n=5 c=4: reliability falls with k', () => {
    // C(4,k)/C(5,k) = 4/5, 6/10, 4/10, 1/5, 0/1
    expect([1, 2, 3, 4, 5].map((k) => passHatK(5, 4, k))).toEqual([
      expect.closeTo(0.8, 12),
      expect.closeTo(0.6, 12),
      expect.closeTo(0.4, 12),
      expect.closeTo(0.2, 12),
      0,
    ]);
  });

  it('is 1 when every trial passed', () => {
    expect(passHatK(3, 3, 3)).toBe(1); // C(3,3)/C(3,3)
  });
});
