import { passRateInterval } from './clustered-interval.js';
import type { CaseTally } from './counts.js';

/** One case run on both sides of a comparison: its tally on each. */
export interface PairedTally {
  a: CaseTally;
  b: CaseTally;
}

/** The difference of two pass rates over the same cases, with its 95 % interval. */
export interface PassRateDifference {
  /** a's pass rate minus b's, each pooled over the paired cases. */
  difference: number;
  low: number;
  high: number;
  /** The correlation of the two sides' per-case pass rates that narrowed the interval (0 when it cannot be told). */
  correlation: number;
}

/**
 * The difference of two pass rates measured on the same cases, and its 95 % interval by the method of
 * variance estimates recovery (MOVER; Zou & Donner 2008) for correlated proportions:
 *
 * - each side's rate p with its interval [l, u], clustered by case (`passRateInterval`);
 * - r, the Pearson correlation of the sides' per-case pass rates: a case that is hard for one side
 *   tends to be hard for the other. Under `MIN_CASES_FOR_CORRELATION` cases it is taken as 0 (as it is
 *   where a side does not vary): from two or three cases r is ±1 by chance, which would shrink the
 *   interval to nothing, while 0 only errs wide;
 * - L = d − √((p₁ − l₁)² − 2r(p₁ − l₁)(u₂ − p₂) + (u₂ − p₂)²),
 *   U = d + √((u₁ − p₁)² − 2r(u₁ − p₁)(p₂ − l₂) + (p₂ − l₂)²), within [−1, 1].
 *
 * Built on Wilson's intervals, it stays honest at rates of 0 and 1 and with few cases, where a
 * normal interval of the per-case differences would claim certainty from two identical cases.
 */
export function passRateDifference(pairs: readonly PairedTally[]): PassRateDifference {
  if (pairs.length === 0) throw new RangeError('a difference needs at least one paired case');
  const a = passRateInterval(pairs.map((pair) => pair.a));
  const b = passRateInterval(pairs.map((pair) => pair.b));
  const r = correlation(
    pairs.map((pair) => pair.a.passes / pair.a.trials),
    pairs.map((pair) => pair.b.passes / pair.b.trials),
  );
  const difference = a.rate - b.rate;
  const below = (a.rate - a.low) ** 2 - 2 * r * (a.rate - a.low) * (b.high - b.rate) + (b.high - b.rate) ** 2;
  const above = (a.high - a.rate) ** 2 - 2 * r * (a.high - a.rate) * (b.rate - b.low) + (b.rate - b.low) ** 2;
  return {
    difference,
    low: Math.max(-1, difference - Math.sqrt(Math.max(0, below))),
    high: Math.min(1, difference + Math.sqrt(Math.max(0, above))),
    correlation: r,
  };
}

/** Fewer paired cases than this say too little of how the sides' per-case rates move together. */
export const MIN_CASES_FOR_CORRELATION = 10;

function correlation(x: readonly number[], y: readonly number[]): number {
  if (x.length < MIN_CASES_FOR_CORRELATION) return 0;
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  x.forEach((xi, i) => {
    const yi = y[i] as number;
    sxy += (xi - mx) * (yi - my);
    sxx += (xi - mx) ** 2;
    syy += (yi - my) ** 2;
  });
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}
