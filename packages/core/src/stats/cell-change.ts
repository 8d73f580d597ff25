import { assertTally, type CaseTally } from './counts.js';
import { SIGNIFICANCE_LEVEL } from './paired-test.js';

/** How one (agent, case) cell changed from a base run to a head run. */
export interface CellChange {
  /** `unchanged` covers the same result and a change within noise. */
  verdict: 'regression' | 'improvement' | 'unchanged';
  /** One-sided mid-p of Fisher's exact test that head passes less often than base; 1 or 0 by the flip rule. */
  pWorse: number;
  /** One-sided mid-p that head passes more often than base. */
  pBetter: number;
  /** `flip` when both sides ran one trial (the outcomes are compared), else `fisherMidP`. */
  method: 'flip' | 'fisherMidP';
}

/**
 * Compares a cell's pass count in a base run with a head run. With one trial on both sides nothing can
 * be tested and every flip counts: pass → fail is a regression, fail → pass an improvement. Otherwise
 * the head's passes, given both sides' trials and the passes of both together, follow a hypergeometric
 * law under the hypothesis that nothing changed (Fisher's exact test); a change counts when its
 * one-sided mid-p, P(X beyond observed) + ½·P(X = observed), is under the significance level. The
 * mid-p keeps Fisher's test from being too conservative at a handful of trials, where the plain p of
 * 3/3 → 0/3 is exactly 0.05: that drop is a regression (mid-p 0.025), 3/3 → 2/3 is not (0.25).
 */
export function cellChange(base: CaseTally, head: CaseTally): CellChange {
  assertTally(base, 'base');
  assertTally(head, 'head');
  if (base.trials === 1 && head.trials === 1) return flipChange(base.passes === 1, head.passes === 1);
  const probabilities = headPassDistribution(base, head);
  let below = 0;
  for (let x = 0; x < head.passes; x++) below += probabilities[x] ?? 0;
  const atObserved = probabilities[head.passes] ?? 0;
  const pWorse = clampProbability(below + atObserved / 2);
  const pBetter = clampProbability(1 - below - atObserved / 2);
  const verdict =
    pWorse < SIGNIFICANCE_LEVEL ? 'regression' : pBetter < SIGNIFICANCE_LEVEL ? 'improvement' : 'unchanged';
  return { verdict, pWorse, pBetter, method: 'fisherMidP' };
}

function flipChange(basePassed: boolean, headPassed: boolean): CellChange {
  if (basePassed === headPassed) return { verdict: 'unchanged', pWorse: 1, pBetter: 1, method: 'flip' };
  return basePassed
    ? { verdict: 'regression', pWorse: 0, pBetter: 1, method: 'flip' }
    : { verdict: 'improvement', pWorse: 1, pBetter: 0, method: 'flip' };
}

/** P(head passes = x) for x = 0 … head.trials, with both sides' total passes fixed. */
function headPassDistribution(base: CaseTally, head: CaseTally): number[] {
  const total = base.trials + head.trials;
  const passes = base.passes + head.passes;
  const logAll = logChoose(total, head.trials);
  const probabilities: number[] = [];
  for (let x = 0; x <= head.trials; x++) {
    const failuresDrawn = head.trials - x;
    const possible = x <= passes && failuresDrawn <= total - passes;
    probabilities.push(
      possible ? Math.exp(logChoose(passes, x) + logChoose(total - passes, failuresDrawn) - logAll) : 0,
    );
  }
  return probabilities;
}

function logChoose(n: number, k: number): number {
  const smaller = Math.min(k, n - k);
  let sum = 0;
  for (let i = 1; i <= smaller; i++) sum += Math.log(n - smaller + i) - Math.log(i);
  return sum;
}

// Sums of exponentials can stray past 0 or 1 in the last bits.
function clampProbability(p: number): number {
  return Math.min(1, Math.max(0, p));
}
