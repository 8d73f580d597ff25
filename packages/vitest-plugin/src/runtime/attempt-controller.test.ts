import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { attemptController } from './attempt-controller.js';

describe('attemptController', () => {
  it('aborts with the test signal, with its reason, until released', () => {
    const test = new AbortController();
    const { controller } = attemptController(test.signal);
    test.abort(new Error('timed out'));
    expect(controller.signal.aborted).toBe(true);
    expect((controller.signal.reason as Error).message).toBe('timed out');
  });

  it('leaves no listener on the test signal once released, however many attempts it served', () => {
    const test = new AbortController();
    for (let attempt = 0; attempt < 100; attempt += 1) attemptController(test.signal).release();
    expect(getEventListeners(test.signal, 'abort')).toHaveLength(0);
    const released = attemptController(test.signal);
    released.release();
    test.abort();
    expect(released.controller.signal.aborted).toBe(false);
  });

  it('ignores a test signal that was aborted before the attempt began', () => {
    const stale = AbortSignal.abort();
    const { controller, release } = attemptController(stale);
    expect(controller.signal.aborted).toBe(false);
    release();
  });
});
