import type { Usage } from '../report/model.js';

/** What an agent may report spending on one trial. */
export interface Budget {
  /** US dollars, by the agent's own reckoning. */
  maxCostUsd?: number;
  /** Input and output tokens together. */
  maxTokens?: number;
  /** Model replies (turns), where the agent reports them. */
  maxTurns?: number;
}

/**
 * Why a trial's usage is over its budget, e.g. `the agent reported $0.4210, over the budget of
 * $0.25 (maxCostUsd)`, or undefined when it is within it or reported nothing to measure.
 */
export function budgetExceeded(usage: Usage, budget: Budget | undefined): string | undefined {
  if (budget === undefined) return undefined;
  if (budget.maxCostUsd !== undefined && usage.costUsd !== undefined && usage.costUsd > budget.maxCostUsd) {
    return `the agent reported $${usage.costUsd.toFixed(4)}, over the budget of $${budget.maxCostUsd} (maxCostUsd)`;
  }
  const tokens =
    usage.inputTokens === undefined && usage.outputTokens === undefined
      ? undefined
      : (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  if (budget.maxTokens !== undefined && tokens !== undefined && tokens > budget.maxTokens) {
    return `the agent reported ${tokens} tokens, over the budget of ${budget.maxTokens} (maxTokens)`;
  }
  if (budget.maxTurns !== undefined && usage.turns !== undefined && usage.turns > budget.maxTurns) {
    return `the agent reported ${usage.turns} turns, over the budget of ${budget.maxTurns} (maxTurns)`;
  }
  return undefined;
}
