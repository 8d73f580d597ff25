import { describe, expect, it } from 'vitest';
import { budgetExceeded } from './budget.js';

describe('budgetExceeded', () => {
  it('says which bound the reported usage went over', () => {
    expect(budgetExceeded({ costUsd: 0.421 }, { maxCostUsd: 0.25 })).toBe(
      'the agent reported $0.4210, over the budget of $0.25 (maxCostUsd)',
    );
    expect(budgetExceeded({ inputTokens: 900, outputTokens: 200 }, { maxTokens: 1000 })).toBe(
      'the agent reported 1100 tokens, over the budget of 1000 (maxTokens)',
    );
  });

  it('passes usage within its budget, and usage that says nothing of what a bound measures', () => {
    expect(budgetExceeded({ costUsd: 0.25, inputTokens: 1000 }, { maxCostUsd: 0.25, maxTokens: 1000 })).toBeUndefined();
    expect(budgetExceeded({ inputTokens: 5000 }, { maxCostUsd: 0.01 })).toBeUndefined();
    expect(budgetExceeded({ costUsd: 9 }, undefined)).toBeUndefined();
  });
});
