/** The 97.5 % quantile of the standard normal distribution: a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;

/** A confidence interval of a proportion, as fractions in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson's score interval for a proportion p observed over n trials (n need not be whole: an effective
 * sample size may be passed). Unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at
 * p = 0 or 1.
 */
export function wilsonInterval(p: number, n: number, z = Z_95): Interval {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must lie in [0, 1], got ${p}`);
  if (!(n > 0 && Number.isFinite(n))) throw new RangeError(`n must be a positive number, got ${n}`);
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - halfWidth), high: Math.min(1, centre + halfWidth) };
}
