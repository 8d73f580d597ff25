import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CaseBudgetError, runWithinBudget } from './case-budget.js';

describe('runWithinBudget', () => {
  it('passes a task that ends in time through, and aborts nothing', async () => {
    const controller = new AbortController();
    const run = await runWithinBudget(1000, 1000, controller, async () => {
      await delay(20);
      return 'done';
    });
    expect(run).toEqual({ value: 'done', exceeded: false });
    expect(controller.signal.aborted).toBe(false);
  });

  it('aborts a task that overruns, with a CaseBudgetError, and hands back what the task made of it', async () => {
    const controller = new AbortController();
    const run = await runWithinBudget(50, 5000, controller, async () => {
      await new Promise((resolve) => controller.signal.addEventListener('abort', resolve));
      return 'stopped';
    });
    expect(run).toEqual({ value: 'stopped', exceeded: true });
    expect(controller.signal.reason).toBeInstanceOf(CaseBudgetError);
    expect((controller.signal.reason as Error).message).toBe(
      'the case did not finish within its budget of 1s (each of its commands run to its timeout, plus preparation), so it was stopped',
    );
  });

  it('gives up on a task that does not end after the abort either', async () => {
    const controller = new AbortController();
    const started = Date.now();
    await expect(runWithinBudget(30, 50, controller, () => new Promise<never>(() => {}))).rejects.toBeInstanceOf(
      CaseBudgetError,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
  });

  it('passes a task failure through', async () => {
    await expect(
      runWithinBudget(1000, 1000, new AbortController(), () => Promise.reject(new Error('harness fault'))),
    ).rejects.toThrow('harness fault');
  });
});
