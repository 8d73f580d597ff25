import { assertTally, type CaseTally } from './counts.js';

/** How one cell changed from a base run to a head run. */
export interface CellChange {
  /** `unchanged` when the cell is the same or moved within noise. */
  verdict: 'regression' | 'improvement' | 'unchanged';
  /** One-sided mid-p of Fisher's exact test that head passes less often than base (1 when k = 1 both). */
  pWorse: number;
  pBetter: number;
  /** The rule that decided: a single trial on both sides compares outcomes, else the test. */
  method: 'flip' | 'fisherMidP';
}

/**
 * Compares a cell's tallies in two runs. One trial on each side cannot be tested: every flip counts.
 * Otherwise Fisher's exact test with mid-p, one-sided each way, at 0.05.
 */
export function cellChange(base: CaseTally, head: CaseTally): CellChange {
  assertTally(base, 'base');
  assertTally(head, 'head');
  if (base.trials === 1 && head.trials === 1) {
    const verdict = head.passes < base.passes ? 'regression' : head.passes > base.passes ? 'improvement' : 'unchanged';
    return { verdict, pWorse: 1, pBetter: 1, method: 'flip' };
  }
  const total = base.trials + head.trials;
  const passes = base.passes + head.passes;
  const probability = (x: number): number =>
    Math.exp(logChoose(passes, x) + logChoose(total - passes, head.trials - x) - logChoose(total, head.trials));
  let below = 0;
  let above = 0;
  for (let x = Math.max(0, head.trials - (total - passes)); x <= Math.min(passes, head.trials); x++) {
    if (x < head.passes) below += probability(x);
    if (x > head.passes) above += probability(x);
  }
  const at = probability(head.passes);
  const pWorse = Math.min(1, below + at / 2);
  const pBetter = Math.min(1, above + at / 2);
  const verdict = pWorse < 0.05 ? 'regression' : pBetter < 0.05 ? 'improvement' : 'unchanged';
  return { verdict, pWorse, pBetter, method: 'fisherMidP' };
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log((n - k + i) / i);
  return sum;
}
