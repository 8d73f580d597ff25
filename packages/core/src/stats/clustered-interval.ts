import { assertTally, type CaseTally } from './counts.js';
import { type Interval, wilsonInterval, Z_95 } from './wilson.js';

/** An agent's pass rate over cases × trials, with its 95 % interval. */
export interface PassRateInterval extends Interval {
  /** Passes over trials, every trial of every case counted once: Σc / Σn. */
  rate: number;
  /** How many independent trials the interval is worth: trials / designEffect, or the number of cases at 0 % and 100 %. */
  effectiveTrials: number;
  /** How much the clustering by case widens the variance over independent trials, at least 1. */
  designEffect: number;
}

/**
 * The pass rate of an agent over its cases and a 95 % interval that treats the trials of one case as
 * correlated (an agent that fails a hard case tends to fail all its trials of it):
 *
 * - estimate: the ratio p = Σc / Σn over cases i with n_i trials and c_i passes;
 * - its cluster-robust variance, clustered by case, for m cases:
 *   V = m/(m−1) · Σ (c_i − p·n_i)² / (Σn)²;
 * - the design effect deff = V / (p(1−p)/Σn), the binomial variance of Σn independent trials, taken at
 *   least 1 (clustering never makes trials worth more than independent ones);
 * - the effective sample size n_eff = Σn / deff, and Wilson's interval of p over n_eff trials.
 *
 * At p = 0 or p = 1 there is no variance to estimate, so n_eff is the number of cases (each case one
 * independent observation). One case alone has nothing to cluster over: its interval is Wilson's over
 * its own trials.
 */
export function passRateInterval(cases: readonly CaseTally[]): PassRateInterval {
  if (cases.length === 0) throw new RangeError('a pass rate needs at least one case');
  cases.forEach((tally, index) => {
    assertTally(tally, `cases[${index}]`);
  });
  const trials = sum(cases.map((tally) => tally.trials));
  const passes = sum(cases.map((tally) => tally.passes));
  const rate = passes / trials;
  const m = cases.length;

  let designEffect = 1;
  let effectiveTrials = trials;
  if (m > 1 && (rate === 0 || rate === 1)) {
    effectiveTrials = m;
    designEffect = trials / m;
  } else if (m > 1) {
    const squaredResiduals = sum(cases.map((tally) => (tally.passes - rate * tally.trials) ** 2));
    const clusteredVariance = ((m / (m - 1)) * squaredResiduals) / (trials * trials);
    const binomialVariance = (rate * (1 - rate)) / trials;
    designEffect = Math.max(1, clusteredVariance / binomialVariance);
    effectiveTrials = trials / designEffect;
  }
  return { rate, ...wilsonInterval(rate, effectiveTrials, Z_95), effectiveTrials, designEffect };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
