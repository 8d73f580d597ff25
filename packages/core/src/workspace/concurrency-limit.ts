/** Runs a task when a slot is free; resolves or rejects as the task does. */
export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Returns a function that runs at most `concurrency` of the tasks given to it at once, in order of
 * arrival. A task holds its slot only while it runs: a task must never wait, in its slot, on another
 * task of the same limit, or the two could wait on each other forever.
 */
export function createConcurrencyLimit(concurrency: number): ConcurrencyLimit {
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  let active = 0;
  // A queue with a moving head: shift() on a long array would copy it on every task.
  const waiting: Array<() => void> = [];
  let head = 0;
  const next = (): void => {
    active -= 1;
    if (head < waiting.length) {
      const start = waiting[head] as () => void;
      waiting[head] = noop;
      head += 1;
      if (head === waiting.length) {
        waiting.length = 0;
        head = 0;
      }
      start();
    }
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      const start = (): void => {
        active += 1;
        let running: Promise<T>;
        try {
          running = task();
        } catch (error) {
          running = Promise.reject(error);
        }
        running.then(resolve, reject).finally(next);
      };
      if (active < concurrency) start();
      else waiting.push(start);
    });
}

function noop(): void {}
