import { assertCount, assertTally, type CaseTally } from './counts.js';
import { seededUint32 } from './prng.js';

/** One agent's tally on one case, named by a key that is the same for both agents of a comparison. */
export interface KeyedTally extends CaseTally {
  key: string;
}

/** One case both agents ran: each agent's pass rate on it. */
export interface PairedCase {
  key: string;
  a: number;
  b: number;
}

/** The paired comparison of agent a with agent b over the cases both ran. */
export interface PairedComparison {
  /** The cases both ran, in the order of a's tallies. */
  cases: PairedCase[];
  /** Mean over those cases of a's pass rate minus b's; 0 when there are none. */
  meanDifference: number;
  /** Two-sided p-value of the sign-flip permutation test of the mean difference; 1 without differences. */
  pValue: number;
  /** `exact` when every sign pattern was enumerated, `monteCarlo` when they were sampled. */
  method: 'exact' | 'monteCarlo';
  /** Cases whose two pass rates differ: only they can change sign. */
  nonZeroPairs: number;
  /** p < 0.05. */
  significant: boolean;
}

/** Options of `pairedComparison`; the defaults are what the scoreboard uses. */
export interface PairedComparisonOptions {
  /**
   * Enumerate every sign pattern up to this many non-zero pairs (2^n patterns), sample above it.
   * @default 20
   */
  maxExactPairs?: number;
  /**
   * Random sign patterns drawn above `maxExactPairs`.
   * @default 20000
   */
  draws?: number;
  /**
   * Seed of the draws: fixed, so a scoreboard is reproducible.
   * @default 0x67a2b3c1
   */
  seed?: number;
}

/** The p-value under which a difference counts as significant. */
export const SIGNIFICANCE_LEVEL = 0.05;

const defaultOptions: Required<PairedComparisonOptions> = { maxExactPairs: 20, draws: 20_000, seed: 0x67a2b3c1 };

// Sums of the same differences added in another order can differ in the last bits; a pattern that ties
// the observed sum must count as at least as extreme, not fall on either side by rounding.
const TIE_TOLERANCE = 1e-9;

/**
 * Compares agent a with agent b on the cases both ran (matched by key): per case the difference of
 * pass rates d_i = a_i − b_i, their mean, and a two-sided sign-flip permutation test of it. Under the
 * null hypothesis that the agents are alike, each d_i is as likely to have either sign, so the p-value
 * is the share of the 2^m sign patterns whose |Σ ±d_i| is at least the observed |Σ d_i|. Pairs with
 * d_i = 0 are the same under either sign and drop out. Up to `maxExactPairs` non-zero pairs every
 * pattern is enumerated (an exact p-value); above, `draws` patterns are sampled with a seeded generator
 * and p = (1 + hits) / (1 + draws), which never reports 0 and stays valid.
 */
export function pairedComparison(
  a: readonly KeyedTally[],
  b: readonly KeyedTally[],
  options: PairedComparisonOptions = {},
): PairedComparison {
  const { maxExactPairs, draws, seed } = resolveOptions(options);
  const rateOfB = new Map<string, number>();
  b.forEach((tally, index) => {
    assertTally(tally, `b[${index}]`);
    rateOfB.set(tally.key, tally.passes / tally.trials);
  });
  const cases: PairedCase[] = [];
  a.forEach((tally, index) => {
    assertTally(tally, `a[${index}]`);
    const rate = rateOfB.get(tally.key);
    if (rate !== undefined) cases.push({ key: tally.key, a: tally.passes / tally.trials, b: rate });
  });

  const differences = cases.map((pair) => pair.a - pair.b).filter((difference) => difference !== 0);
  const observed = Math.abs(differences.reduce((total, difference) => total + difference, 0));
  const meanDifference = cases.length === 0 ? 0 : sumOf(cases.map((pair) => pair.a - pair.b)) / cases.length;
  const exact = differences.length <= maxExactPairs;
  const pValue = exact ? exactPValue(differences, observed) : monteCarloPValue(differences, observed, draws, seed);
  return {
    cases,
    meanDifference,
    pValue,
    method: exact ? 'exact' : 'monteCarlo',
    nonZeroPairs: differences.length,
    significant: pValue < SIGNIFICANCE_LEVEL,
  };
}

/**
 * Counts the sign patterns as extreme as the observed one over all 2^m. Flipping every sign gives the
 * same |sum|, so only the patterns that keep the last difference positive are visited and the count
 * doubled.
 */
function exactPValue(differences: readonly number[], observed: number): number {
  const m = differences.length;
  if (m === 0) return 1;
  const patterns = 2 ** (m - 1);
  let extreme = 0;
  for (let mask = 0; mask < patterns; mask++) {
    let total = differences[m - 1] ?? 0;
    for (let i = 0; i < m - 1; i++) {
      const difference = differences[i] ?? 0;
      total += mask & (1 << i) ? -difference : difference;
    }
    if (Math.abs(total) >= observed - TIE_TOLERANCE) extreme++;
  }
  return extreme / patterns;
}

function monteCarloPValue(differences: readonly number[], observed: number, draws: number, seed: number): number {
  const next = seededUint32(seed);
  let extreme = 0;
  for (let draw = 0; draw < draws; draw++) {
    let total = 0;
    let bits = 0;
    for (let i = 0; i < differences.length; i++) {
      if (i % 32 === 0) bits = next();
      const difference = differences[i] ?? 0;
      total += bits & (1 << (i % 32)) ? -difference : difference;
    }
    if (Math.abs(total) >= observed - TIE_TOLERANCE) extreme++;
  }
  return (1 + extreme) / (1 + draws);
}

function sumOf(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function resolveOptions(options: PairedComparisonOptions): Required<PairedComparisonOptions> {
  const resolved = {
    maxExactPairs: options.maxExactPairs ?? defaultOptions.maxExactPairs,
    draws: options.draws ?? defaultOptions.draws,
    seed: options.seed ?? defaultOptions.seed,
  };
  // Sign patterns are bit masks of 32-bit integers.
  assertCount('maxExactPairs', resolved.maxExactPairs);
  if (resolved.maxExactPairs > 30) {
    throw new RangeError(`maxExactPairs must be at most 30, got ${resolved.maxExactPairs}`);
  }
  assertCount('draws', resolved.draws, 1);
  if (!Number.isInteger(resolved.seed)) throw new RangeError(`seed must be a whole number, got ${resolved.seed}`);
  return resolved;
}
