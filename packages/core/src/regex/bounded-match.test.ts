import { describe, expect, it } from 'vitest';
import { matchRegexBounded } from './bounded-match.js';
import { busiestOtherThread } from './test-support/threads.js';
import { workersStarted } from './worker-pool.js';

const GENEROUS_MS = 10_000;

// How the two ways of matching combine; each has its own tests (quick-match, thread-match).
describe('matchRegexBounded', () => {
  it('answers a quick pattern without starting a thread', async () => {
    const before = workersStarted();
    const outcomes = await Promise.all([
      matchRegexBounded({ pattern: '\\bdone\\b', text: 'all done\n', timeoutMs: GENEROUS_MS }),
      matchRegexBounded({ pattern: '^done', text: 'all done\n', timeoutMs: GENEROUS_MS }),
      matchRegexBounded({ pattern: '(', text: 'x', timeoutMs: GENEROUS_MS }),
    ]);
    expect(outcomes).toEqual([
      { status: 'matched' },
      { status: 'unmatched' },
      { status: 'failed', message: 'Invalid regular expression: /(/: Unterminated group' },
    ]);
    expect(workersStarted()).toBe(before);
  });

  it('gives a match that needs longer to a thread, which finds the answer', async () => {
    const before = workersStarted();
    // About 2^22 backtracking steps: well over the quick budget, well under the bound.
    await expect(
      matchRegexBounded({ pattern: '^(a+)+$', text: `${'a'.repeat(22)}!`, timeoutMs: GENEROUS_MS }),
    ).resolves.toEqual({ status: 'unmatched' });
    expect(workersStarted()).toBe(before + 1);
  });

  it('stops a catastrophically backtracking match at its deadline, on a thread', async () => {
    const started = performance.now();
    const outcome = matchRegexBounded({ pattern: '^(a+)+$', text: `${'a'.repeat(40)}!`, timeoutMs: 1500 });
    // This thread is free while the match runs: the match went to another.
    expect(await busiestOtherThread(), 'a thread should be busy matching').toBeDefined();
    await expect(outcome).resolves.toEqual({ status: 'timedOut', timeoutMs: 1500 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('times out without a thread when the bound is no longer than the quick budget', async () => {
    const before = workersStarted();
    await expect(matchRegexBounded({ pattern: '^(a+)+$', text: `${'a'.repeat(40)}!`, timeoutMs: 5 })).resolves.toEqual({
      status: 'timedOut',
      timeoutMs: 5,
    });
    expect(workersStarted()).toBe(before);
  });

  it('starts nothing for an already aborted signal', async () => {
    await expect(
      matchRegexBounded({ pattern: 'x', text: 'x', timeoutMs: GENEROUS_MS, signal: AbortSignal.abort() }),
    ).resolves.toEqual({ status: 'aborted' });
  });
});
