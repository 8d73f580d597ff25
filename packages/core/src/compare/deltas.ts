import type { Delta, Deltas, SideTotals } from './model.js';

/** Duration, tokens and cost of head against base; a side that reported no figure leaves the delta out. */
export function deltasOf(base: SideTotals, head: SideTotals): Deltas {
  return {
    durationMs: delta(base.trials > 0 ? base.durationMs : undefined, head.trials > 0 ? head.durationMs : undefined),
    inputTokens: delta(base.inputTokens, head.inputTokens),
    outputTokens: delta(base.outputTokens, head.outputTokens),
    costUsd: delta(base.costUsd, head.costUsd),
    costIsEstimate: base.costIsEstimate || head.costIsEstimate,
  };
}

function delta(base: number | undefined, head: number | undefined): Delta {
  const out: Delta = {};
  if (base !== undefined) out.base = base;
  if (head !== undefined) out.head = head;
  if (base !== undefined && head !== undefined) out.delta = head - base;
  return out;
}
