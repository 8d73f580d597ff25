import { Worker } from 'node:worker_threads';
import { MAX_TIMER_MS } from '../process/run-process.js';
import type { BoundedMatchOutcome, RegexMatcher } from './match-types.js';
import type { MatchWorkerReply, MatchWorkerRequest } from './match-worker-source.js';
import { acquireWorker, releaseWorker } from './worker-pool.js';

/**
 * Tests `pattern` against `text` in a worker thread and ends the worker when `timeoutMs` passes or the
 * signal aborts. On the thread that runs the cases, a long match would block the event loop, its
 * timers and its signal handlers for as long as it ran (a vm timeout stops it, but only at its end),
 * and a catastrophically backtracking one would run to its bound. Terminating the worker stops V8
 * mid-backtrack, and the thread's own event loop stays free meanwhile.
 */
export const matchOnThread: RegexMatcher = async (request) => {
  if (request.signal?.aborted) return { status: 'aborted' };
  const grant = await acquireWorker(request.signal);
  if (grant === undefined) return { status: 'aborted' };
  if (!(grant instanceof Worker)) return { status: 'failed', message: grant.failed };
  const worker = grant;
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: BoundedMatchOutcome, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onReply).off('error', onError).off('exit', onExit);
      // Resolved once a worker that is not kept is gone, so a timed-out pattern stops burning CPU
      // before the next step.
      void releaseWorker(worker, reusable).then(() => resolve(outcome));
    };
    const onReply = (reply: MatchWorkerReply) =>
      settle(
        reply.error === undefined
          ? { status: reply.matched ? 'matched' : 'unmatched' }
          : { status: 'failed', message: reply.error },
        true,
      );
    const onError = (error: Error) => settle({ status: 'failed', message: error.message }, false);
    const onExit = (code: number) =>
      settle({ status: 'failed', message: `the matching thread stopped with exit code ${code}` }, false);
    const onAbort = () => settle({ status: 'aborted' }, false);
    worker.on('message', onReply).on('error', onError).on('exit', onExit);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    // The deadline starts once the match has a running thread: neither the time a fresh worker takes
    // to start nor the wait for a busy one counts against the pattern.
    timer = setTimeout(
      () => settle({ status: 'timedOut', timeoutMs: request.timeoutMs }, false),
      Math.min(request.timeoutMs, MAX_TIMER_MS),
    );
    const message: MatchWorkerRequest = { pattern: request.pattern, flags: request.flags, text: request.text };
    worker.postMessage(message);
  });
};
