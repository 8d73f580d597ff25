import type { CaseTally } from './counts.js';
import { wilsonInterval, Z_95 } from './wilson.js';

/** One case run on both sides of a comparison: its tally on each. */
export interface PairedTally {
  a: CaseTally;
  b: CaseTally;
}

/** The difference of two pass rates over the same cases, with its 95 % interval. */
export interface PassRateDifference {
  /** The mean over the cases of a's pass rate on the case minus b's. */
  difference: number;
  low: number;
  high: number;
}

/**
 * The difference of two pass rates measured on the same cases, paired by case, and its 95 % interval
 * by the method of variance estimates recovery (MOVER; Newcombe 1998, Zou & Donner 2008):
 *
 * - on each case i, the sides' rates p and Wilson intervals [l, u] over their own trials, and the
 *   case's difference dᵢ = p₁ − p₂ with lᵢ = dᵢ − √((p₁ − l₁)² + (u₂ − p₂)²) and
 *   uᵢ = dᵢ + √((u₁ − p₁)² + (p₂ − l₂)²) (the sides' trials are independent runs);
 * - over m cases, d = Σdᵢ / m, L = d − √Σ(dᵢ − lᵢ)² / m and U = d + √Σ(uᵢ − dᵢ)² / m, within [−1, 1].
 *
 * It answers for these cases, their trials being the chance: whether one side does better on these
 * tasks, as a skill author asks, not on tasks in general. Wilson's intervals keep it honest at rates
 * of 0 and 1, where 3/3 against 0/3 is evidence and 1/1 against 0/1 is not.
 */
export function passRateDifference(pairs: readonly PairedTally[]): PassRateDifference {
  if (pairs.length === 0) throw new RangeError('a difference needs at least one paired case');
  let sum = 0;
  let below = 0;
  let above = 0;
  for (const { a, b } of pairs) {
    const pa = a.passes / a.trials;
    const pb = b.passes / b.trials;
    const ia = wilsonInterval(pa, a.trials, Z_95);
    const ib = wilsonInterval(pb, b.trials, Z_95);
    sum += pa - pb;
    below += (pa - ia.low) ** 2 + (ib.high - pb) ** 2;
    above += (ia.high - pa) ** 2 + (pb - ib.low) ** 2;
  }
  const m = pairs.length;
  const difference = sum / m;
  return {
    difference,
    low: Math.max(-1, difference - Math.sqrt(below) / m),
    high: Math.min(1, difference + Math.sqrt(above) / m),
  };
}
