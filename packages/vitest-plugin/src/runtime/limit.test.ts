import { describe, expect, it } from 'vitest';
import { createLimit } from './limit.js';

describe('createLimit', () => {
  it('runs at most N tasks at once, in order of arrival, and passes results and errors through', async () => {
    const limit = createLimit(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (id: number) =>
      limit(async () => {
        started.push(id);
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        if (id === 3) throw new Error('task 3 failed');
        return id;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(task));
    expect(peak).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      1,
      2,
      'task 3 failed',
      4,
      5,
    ]);
  });
});
