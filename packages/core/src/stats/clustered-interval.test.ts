import { describe, expect, it } from 'vitest';
import { passRateInterval } from './clustered-interval.js';
import { wilsonInterval, Z_95 } from './wilson.js';

// z = 1.959964, z² = 3.841459 throughout.

describe('wilsonInterval', () => {
  it('p = 0.5 over 6 trials', () => {
    // d = 1 + z²/6 = 1.640243; centre = (0.5 + z²/12)/d = 0.820122/1.640243 = 0.5
    // half = (z/d)·√(0.25/6 + z²/144) = 1.194926 · √(0.041667 + 0.026677) = 1.194926 · 0.261426 = 0.312384
    const interval = wilsonInterval(0.5, 6);
    expect(interval.low).toBeCloseTo(0.187616, 6);
    expect(interval.high).toBeCloseTo(0.812384, 6);
  });

  it('p = 0 over 3 trials reaches z²/(n + z²)', () => {
    // centre = half = (z²/6)/(1 + z²/3), so low = 0 and high = 2·(z²/6)/(1 + z²/3) = z²/(3 + z²) = 3.841459/6.841459
    const interval = wilsonInterval(0, 3);
    expect(interval.low).toBeCloseTo(0, 12);
    expect(interval.high).toBeCloseTo(0.561497, 6);
  });

  it('refuses p outside [0, 1] and n ≤ 0', () => {
    expect(() => wilsonInterval(1.1, 3)).toThrow(RangeError);
    expect(() => wilsonInterval(0.5, 0)).toThrow(RangeError);
  });

  it('uses the two-sided 95 % normal quantile', () => {
    expect(Z_95).toBeCloseTo(1.959964, 6);
  });
});

describe('passRateInterval', () => {
  it('widens the interval by the clustering of trials within cases', () => {
    // Cases of 4 trials with 2, 2, 0 and 4 passes: Σn = 16, Σc = 8, p = 0.5, m = 4.
    // Residuals c_i − p·n_i = 0, 0, −2, 2, squares sum to 8.
    // V = m/(m−1) · 8 / 16² = 4/3 · 8/256 = 1/24; binomial p(1−p)/Σn = 0.25/16 = 1/64.
    // deff = (1/24)/(1/64) = 8/3; n_eff = 16 / (8/3) = 6; Wilson(0.5, 6) = [0.187616, 0.812384] (above).
    const interval = passRateInterval([
      { trials: 4, passes: 2 },
      { trials: 4, passes: 2 },
      { trials: 4, passes: 0 },
      { trials: 4, passes: 4 },
    ]);
    expect(interval.rate).toBe(0.5);
    expect(interval.designEffect).toBeCloseTo(8 / 3, 12);
    expect(interval.effectiveTrials).toBeCloseTo(6, 12);
    expect(interval.low).toBeCloseTo(0.187616, 6);
    expect(interval.high).toBeCloseTo(0.812384, 6);
    // The same 16 trials taken as independent give the narrower Wilson(0.5, 16).
    expect(interval.high - interval.low).toBeGreaterThan(wilsonInterval(0.5, 16).high - wilsonInterval(0.5, 16).low);
  });

  it('weights cases by their trials (a ratio estimate, not a mean of rates)', () => {
    // 2/2 and 1/4: Σc/Σn = 3/6 = 0.5 (the mean of rates would be 0.625).
    // Residuals 2 − 0.5·2 = 1 and 1 − 0.5·4 = −1: squares 2. V = 2/1 · 2/36 = 1/9; binomial 0.25/6 = 1/24.
    // deff = 24/9 = 8/3; n_eff = 6/(8/3) = 2.25.
    // Wilson(0.5, 2.25): d = 1 + z²/2.25 = 2.707315, half = (z/d)·√(0.25/2.25 + z²/20.25)
    //   = 0.723949 · √(0.111111 + 0.189702) = 0.723949 · 0.548464 = 0.397061 → [0.102939, 0.897061]
    const interval = passRateInterval([
      { trials: 2, passes: 2 },
      { trials: 4, passes: 1 },
    ]);
    expect(interval.rate).toBe(0.5);
    expect(interval.effectiveTrials).toBeCloseTo(2.25, 12);
    expect(interval.low).toBeCloseTo(0.102939, 6);
    expect(interval.high).toBeCloseTo(0.897061, 6);
  });

  it('never counts trials as worth more than independent ones', () => {
    // 2/4 and 2/4: residuals 0, so V = 0 and deff would be 0; it is taken as 1, n_eff = Σn = 8.
    // Wilson(0.5, 8): d = 1 + z²/8 = 1.480182, half = (z/d)·√(0.25/8 + z²/256) = 1.324137 · √(0.03125 + 0.015006)
    //   = 1.324137 · 0.215073 = 0.284784 → [0.215216, 0.784784]
    const interval = passRateInterval([
      { trials: 4, passes: 2 },
      { trials: 4, passes: 2 },
    ]);
    expect(interval.designEffect).toBe(1);
    expect(interval.effectiveTrials).toBe(8);
    expect(interval.low).toBeCloseTo(0.215216, 6);
    expect(interval.high).toBeCloseTo(0.784784, 6);
  });

  it('counts each case once at 0 % and 100 %', () => {
    // Three cases of 5 failed trials: no variance to estimate, n_eff = m = 3, Wilson(0, 3) = [0, 0.561497].
    const none = passRateInterval([
      { trials: 5, passes: 0 },
      { trials: 5, passes: 0 },
      { trials: 5, passes: 0 },
    ]);
    expect(none).toMatchObject({ rate: 0, effectiveTrials: 3, designEffect: 5 });
    expect(none.low).toBeCloseTo(0, 12);
    expect(none.high).toBeCloseTo(0.561497, 6);
    // Five cases all passed: Wilson(1, 5) = [5/(5 + z²), 1] = [5/8.841459, 1] = [0.565518, 1].
    const all = passRateInterval(Array.from({ length: 5 }, () => ({ trials: 3, passes: 3 })));
    expect(all).toMatchObject({ rate: 1, effectiveTrials: 5, high: 1 });
    expect(all.low).toBeCloseTo(0.565518, 6);
  });

  it('takes one case alone as Wilson over its trials', () => {
    // 3 of 4: Wilson(0.75, 4): d = 1 + z²/4 = 1.960365, centre = (0.75 + z²/8)/d = 1.230182/1.960365 = 0.627527,
    // half = (z/d)·√(0.1875/4 + z²/64) = 0.999796 · √(0.046875 + 0.060023) = 0.999796 · 0.326952 = 0.326885
    // → [0.300642, 0.954413]
    const interval = passRateInterval([{ trials: 4, passes: 3 }]);
    expect(interval).toMatchObject({ rate: 0.75, effectiveTrials: 4, designEffect: 1 });
    expect(interval.low).toBeCloseTo(0.300642, 6);
    expect(interval.high).toBeCloseTo(0.954413, 6);
    // Even at 100 %: Wilson(1, 3) over its 3 trials = [3/(3 + z²), 1] = [0.438503, 1].
    expect(passRateInterval([{ trials: 3, passes: 3 }]).low).toBeCloseTo(3 / (3 + Z_95 ** 2), 12);
  });

  it('refuses no cases and impossible tallies', () => {
    expect(() => passRateInterval([])).toThrow(new RangeError('a pass rate needs at least one case'));
    expect(() => passRateInterval([{ trials: 2, passes: 3 }])).toThrow(
      new RangeError('cases[0].passes (3) exceeds cases[0].trials (2)'),
    );
    expect(() => passRateInterval([{ trials: 0, passes: 0 }])).toThrow(RangeError);
  });
});
