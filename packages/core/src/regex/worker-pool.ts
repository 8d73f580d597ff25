import { Worker } from 'node:worker_threads';
import { MATCH_WORKER_SOURCE } from './match-worker-source.js';

// Match workers, shared by every match of the process that was too slow for the calling thread
// (quick-match.ts). Starting a worker costs tens of milliseconds and several megabytes; a match on a
// running one, well under a millisecond. So workers are kept once started, and matches that arrive
// together take turns on the workers there are, instead of starting one each — a run of many cases
// with slow patterns finishing at once would otherwise start dozens. Only a match that has waited
// a while, because the ones ahead of it are slow (a pattern backtracking to its deadline), gets a
// worker of its own, up to a bound.

// A queued match waits this long before another worker is started for it.
const GROW_AFTER_MS = 50;
// Workers at most, busy or idle; and idle ones kept once the queue is empty.
const MAX_WORKERS = 8;
const MAX_IDLE = 2;

/** What a match gets: an online worker, why none could start, or undefined once its signal aborted. */
export type Grant = Worker | { failed: string } | undefined;

type Waiter = { grant: (grant: Grant) => void; timer: NodeJS.Timeout | undefined };

/** Workers there are now, starting, busy or idle. */
export function workerCount(): number {
  return starting + busy + idle.length;
}

/** Workers started since the process began. */
export function workersStarted(): number {
  return started;
}

const idle: Worker[] = [];
const queue: Waiter[] = [];
let starting = 0;
let busy = 0;
let started = 0;

/**
 * An online worker for one match, ref'd for as long as it is held (give it back with
 * `releaseWorker`); undefined when `signal` aborts first.
 */
export function acquireWorker(signal: AbortSignal | undefined): Promise<Grant> {
  const ready = idle.pop();
  if (ready !== undefined) return Promise.resolve(hold(ready));
  return new Promise((resolve) => {
    const waiter: Waiter = {
      grant: (grant) => {
        clearInterval(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(grant instanceof Worker ? hold(grant) : grant);
      },
      timer: undefined,
    };
    const onAbort = () => {
      const at = queue.indexOf(waiter);
      if (at !== -1) queue.splice(at, 1);
      waiter.grant(undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(waiter);
    if (starting === 0 && busy === 0) startWorker();
    // While it waits, and no worker is on its way, another is started for it every so often: the
    // ones ahead of it are slow. Matches that merely arrive together are served one after another.
    waiter.timer = setInterval(() => {
      if (starting === 0 && workerCount() < MAX_WORKERS) startWorker();
    }, GROW_AFTER_MS);
    waiter.timer.unref();
  });
}

/**
 * Gives a worker back: a reusable one (it answered in time) to the next queued match or to the idle
 * ones; any other is terminated, and the returned promise resolves once its thread is gone.
 */
export async function releaseWorker(worker: Worker, reusable: boolean): Promise<void> {
  busy -= 1;
  if (reusable) {
    offer(worker);
    return;
  }
  // The queue still needs a worker if this was the one it was waiting for.
  if (queue.length > 0 && starting === 0 && idle.length === 0) startWorker();
  await worker.terminate().catch(() => {});
}

function startWorker(): void {
  starting += 1;
  started += 1;
  const worker = new Worker(MATCH_WORKER_SOURCE, { eval: true, env: {} });
  let online = false;
  // Errors are reported by the match under way; without a listener an error event would throw here.
  worker.on('error', () => {});
  worker.once('online', () => {
    online = true;
    starting -= 1;
    offer(worker);
  });
  worker.once('exit', (code) => {
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
    if (online) return;
    // It never ran: the match it was started for learns why, rather than waiting for ever.
    starting -= 1;
    queue.shift()?.grant({ failed: `the matching thread stopped with exit code ${code} before it started` });
  });
}

function offer(worker: Worker): void {
  const waiter = queue.shift();
  if (waiter !== undefined) {
    waiter.grant(worker);
    return;
  }
  if (idle.length >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  // An idle worker must never hold a finished process open.
  worker.unref();
  idle.push(worker);
}

function hold(worker: Worker): Worker {
  busy += 1;
  // A match under way keeps the process alive, as any awaited work does.
  worker.ref();
  return worker;
}
