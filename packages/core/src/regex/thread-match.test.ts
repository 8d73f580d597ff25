import { describe, expect, it } from 'vitest';
import { busiestOtherThread, threadGoneWithin } from './test-support/threads.js';
import { matchOnThread } from './thread-match.js';
import { workersStarted } from './worker-pool.js';

// Against forty `a`s and a `!`, this pattern takes about 2^40 backtracking steps to fail: hours, not seconds.
const BOMB = { pattern: '^(a+)+$', text: `${'a'.repeat(40)}!` };
const GENEROUS_MS = 10_000;

describe('matchOnThread', () => {
  it('says whether an ordinary pattern matches, with its flags', async () => {
    const text = 'building…\nPASS: 12 tests\n';
    const match = (pattern: string, flags?: string) => matchOnThread({ pattern, flags, text, timeoutMs: GENEROUS_MS });
    await expect(match('PASS:\\s+\\d+ tests')).resolves.toEqual({ status: 'matched' });
    await expect(match('^PASS')).resolves.toEqual({ status: 'unmatched' });
    await expect(match('^PASS', 'm')).resolves.toEqual({ status: 'matched' });
    await expect(match('pass: 12', 'i')).resolves.toEqual({ status: 'matched' });
    await expect(match('\\p{Lu}{4}', 'u')).resolves.toEqual({ status: 'matched' });
  });

  it('matches again and again with the g and y flags, which carry no lastIndex between requests', async () => {
    for (const flags of ['g', 'g', 'y', 'y']) {
      await expect(matchOnThread({ pattern: 'PASS', flags, text: 'PASS', timeoutMs: GENEROUS_MS })).resolves.toEqual({
        status: 'matched',
      });
    }
  });

  it('stops a catastrophically backtracking match at its deadline and ends the thread that ran it', async () => {
    const started = performance.now();
    const outcome = matchOnThread({ ...BOMB, timeoutMs: 1500 });
    // While the match runs, this thread is free: timers fire, so signal handlers would too.
    const busy = await busiestOtherThread();
    expect(busy, 'a thread should be busy matching').toBeDefined();
    await expect(outcome).resolves.toEqual({ status: 'timedOut', timeoutMs: 1500 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
    // Resolved once the thread is stopped: nothing keeps burning CPU after the check failed.
    expect(await threadGoneWithin(busy as number, 1000)).toBe(true);
  });

  it('answers other matches while one is stuck, and the next match after a timeout works', async () => {
    const stuck = matchOnThread({ ...BOMB, timeoutMs: 2000 });
    await expect(matchOnThread({ pattern: 'ok', text: 'ok', timeoutMs: GENEROUS_MS })).resolves.toEqual({
      status: 'matched',
    });
    await expect(stuck).resolves.toMatchObject({ status: 'timedOut' });
    await expect(matchOnThread({ pattern: 'ok$', text: 'still ok', timeoutMs: GENEROUS_MS })).resolves.toEqual({
      status: 'matched',
    });
  });

  it('stops at once when the signal aborts, long before the deadline', async () => {
    const controller = new AbortController();
    const outcome = matchOnThread({ ...BOMB, timeoutMs: 600_000, signal: controller.signal });
    const busy = await busiestOtherThread();
    controller.abort();
    await expect(outcome).resolves.toEqual({ status: 'aborted' });
    // Within a second, where the deadline was ten minutes away.
    expect(await threadGoneWithin(busy as number, 1000)).toBe(true);
  });

  it('serves matches that arrive together on the threads there are, not on a new thread each', async () => {
    await matchOnThread({ pattern: 'x', text: 'x', timeoutMs: GENEROUS_MS });
    const before = workersStarted();
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        matchOnThread({ pattern: `^${index}$`, text: String(index), timeoutMs: GENEROUS_MS }),
      ),
    );
    expect(outcomes).toEqual(Array.from({ length: 40 }, () => ({ status: 'matched' })));
    // Forty matches of a fraction of a millisecond each: one thread serves them all, another may be
    // started for one that waited (a loaded machine) — never a thread each.
    expect(workersStarted() - before).toBeLessThanOrEqual(4);
  });

  it('starts nothing for an already aborted signal', async () => {
    await expect(matchOnThread({ ...BOMB, timeoutMs: 600_000, signal: AbortSignal.abort() })).resolves.toEqual({
      status: 'aborted',
    });
  });

  it('reports what the engine gave up with, and invalid patterns, as failures', async () => {
    // Each alternative pushes a backtrack entry: on 10 million characters the engine's stack overflows.
    await expect(
      matchOnThread({ pattern: '^(?:a|b)*$', text: 'ab'.repeat(5_000_000), timeoutMs: GENEROUS_MS }),
    ).resolves.toEqual({ status: 'failed', message: 'Maximum call stack size exceeded' });
    await expect(matchOnThread({ pattern: '(', text: 'x', timeoutMs: GENEROUS_MS })).resolves.toEqual({
      status: 'failed',
      message: 'Invalid regular expression: /(/: Unterminated group',
    });
  });
});
