import { describe, expect, it } from 'vitest';
import { withErrorRetries } from './retry-errors.js';
import type { TrialResult } from './run-trial.js';

const ended = (outcome: TrialResult['outcome'], error?: string): TrialResult => ({
  id: 'c',
  passed: outcome === 'passed',
  outcome,
  durationMs: 1,
  checkResults: [],
  ...(error !== undefined && { error }),
});

/** A trial that ends in each of `outcomes` in turn, and counts its runs. */
function scripted(...outcomes: Array<TrialResult | Error>) {
  let runs = 0;
  const run = async () => {
    const next = outcomes[Math.min(runs, outcomes.length - 1)];
    runs++;
    if (next instanceof Error) throw next;
    return next as TrialResult;
  };
  return { run, runs: () => runs };
}

const signal = new AbortController().signal;

describe('withErrorRetries', () => {
  it('runs again after an agent error and records the attempts', async () => {
    const trial = scripted(ended('agentError', 'rate limited'), ended('passed'));
    expect(await withErrorRetries(trial.run, 2, signal)).toEqual({
      ...ended('passed'),
      attempts: 2,
      retriedErrors: [{ outcome: 'agentError', error: 'rate limited' }],
    });
    expect(trial.runs()).toBe(2);
  });

  it('stops after n retries and keeps the last error', async () => {
    const trial = scripted(ended('harnessError', 'setup failed'));
    const result = await withErrorRetries(trial.run, 2, signal);
    expect(result).toMatchObject({ outcome: 'harnessError', attempts: 3 });
    expect(result.retriedErrors).toHaveLength(2);
    expect(trial.runs()).toBe(3);
  });

  it.each(['failed', 'timedOut', 'tampered', 'overBudget', 'passed'] as const)(
    'never runs a %s trial again',
    async (outcome) => {
      const trial = scripted(ended(outcome));
      expect(await withErrorRetries(trial.run, 3, signal)).toEqual(ended(outcome));
      expect(trial.runs()).toBe(1);
    },
  );

  it('runs once with 0 retries, and not again once the run is cancelled', async () => {
    const once = scripted(ended('agentError'));
    expect(await withErrorRetries(once.run, 0, signal)).toEqual(ended('agentError'));
    expect(once.runs()).toBe(1);
    const controller = new AbortController();
    controller.abort();
    const cancelled = scripted(ended('agentError'));
    await withErrorRetries(cancelled.run, 3, controller.signal);
    expect(cancelled.runs()).toBe(1);
  });

  it('retries a trial the harness could not run, and rethrows once retries are spent', async () => {
    const recovers = scripted(new Error('no slot'), ended('passed'));
    expect(await withErrorRetries(recovers.run, 1, signal)).toMatchObject({
      outcome: 'passed',
      retriedErrors: [{ outcome: 'harnessError', error: 'no slot' }],
    });
    const fails = scripted(new Error('no slot'));
    await expect(withErrorRetries(fails.run, 1, signal)).rejects.toThrow('no slot');
    expect(fails.runs()).toBe(2);
  });
});
