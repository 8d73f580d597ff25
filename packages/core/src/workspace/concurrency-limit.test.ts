import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit.js';

/** A promise and the functions that settle it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createConcurrencyLimit', () => {
  it('runs at most n tasks at once, the others in order of arrival as slots free up', async () => {
    const limit = createConcurrencyLimit(2);
    const gates = Array.from({ length: 5 }, () => deferred());
    const started: number[] = [];
    const results = gates.map((gate, index) =>
      limit(async () => {
        started.push(index);
        await gate.promise;
        return index * 10;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    gates[2]?.resolve();
    gates[3]?.resolve();
    gates[4]?.resolve();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees the slot of a task that rejects or throws at once, and passes the error on', async () => {
    const limit = createConcurrencyLimit(1);
    const rejected = limit(() => Promise.reject(new Error('async')));
    const thrown = limit(() => {
      throw new Error('sync');
    });
    const after = limit(async () => 'ran');
    await expect(rejected).rejects.toThrow('async');
    await expect(thrown).rejects.toThrow('sync');
    expect(await after).toBe('ran');
  });

  it('works through a long queue', async () => {
    const limit = createConcurrencyLimit(3);
    let running = 0;
    let most = 0;
    const tasks = Array.from({ length: 2000 }, (_, index) =>
      limit(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return index;
      }),
    );
    const values = await Promise.all(tasks);
    expect(values[1999]).toBe(1999);
    expect(most).toBe(3);
    expect(running).toBe(0);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => createConcurrencyLimit(0)).toThrow(RangeError);
    expect(() => createConcurrencyLimit(1.5)).toThrow('concurrency must be a positive integer, got 1.5');
  });
});
