import { assertCount } from './counts.js';

/**
 * The unbiased estimate of pass@k from n trials of which c passed: the chance that at least one of k
 * trials drawn without replacement from the n passes, 1 − C(n−c, k)/C(n, k). Computed as the product
 * Π_{i<k} (n−c−i)/(n−i), which never forms a factorial, so it stays exact to rounding for any n.
 * Throws a RangeError for k > n, k < 1, c > n or counts that are not whole numbers.
 */
export function passAtK(n: number, c: number, k: number): number {
  assertArguments(n, c, k);
  // Fewer failures than draws: every draw of k holds a pass.
  if (n - c < k) return 1;
  // 1 − (n−c)/n rounds differently from c/n; pass@1 is the pass rate, so give it exactly.
  if (k === 1) return c / n;
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}

/**
 * The unbiased estimate of pass^k from n trials of which c passed: the chance that all of k trials
 * drawn without replacement from the n pass, C(c, k)/C(n, k) = Π_{i<k} (c−i)/(n−i). It measures
 * reliability where pass@k measures reach. Same arguments and errors as `passAtK`.
 */
export function passHatK(n: number, c: number, k: number): number {
  assertArguments(n, c, k);
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

function assertArguments(n: number, c: number, k: number): void {
  assertCount('n', n, 1);
  assertCount('c', c);
  assertCount('k', k, 1);
  if (c > n) throw new RangeError(`c (${c}) exceeds n (${n}): more passes than trials`);
  if (k > n) throw new RangeError(`k (${k}) exceeds n (${n}): pass@k needs at least k trials`);
}
