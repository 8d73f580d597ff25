import { Worker } from 'node:worker_threads';
import { MAX_TIMER_MS } from '../process/run-process.js';
import { MATCH_WORKER_SOURCE, type MatchWorkerReply, type MatchWorkerRequest } from './match-worker-source.js';

/** One regular expression to test against a text, and how long it may take. */
export interface BoundedMatchRequest {
  /** JavaScript regular expression source. */
  pattern: string;
  flags?: string | undefined;
  text: string;
  /** How long the match may run before it is stopped. */
  timeoutMs: number;
  /** Stops the match at once when aborted. */
  signal?: AbortSignal | undefined;
}

/** How testing a regular expression ended. Outcomes are data: this never throws for a user's pattern. */
export type BoundedMatchOutcome =
  | { status: 'matched' }
  | { status: 'unmatched' }
  /** Still matching after `timeoutMs`: the pattern backtracks catastrophically on this text. */
  | { status: 'timedOut'; timeoutMs: number }
  /** The request's signal aborted first. */
  | { status: 'aborted' }
  /** The pattern did not compile, or the engine gave up (e.g. `Maximum call stack size exceeded`). */
  | { status: 'failed'; message: string };

/** Tests a regular expression against a text; a test injects one that runs without threads. */
export type RegexMatcher = (request: BoundedMatchRequest) => Promise<BoundedMatchOutcome>;

// A worker that finished its last match in time, kept for the next one: starting a worker costs tens of
// milliseconds, a match on a kept one well under one. At most one is kept; concurrent matches start their
// own and end them afterwards.
let idle: { worker: Worker; forget: () => void } | undefined;

/**
 * Tests `pattern` against `text` in a worker thread and ends the worker when `timeoutMs` passes or the
 * signal aborts. A regular expression cannot be interrupted on the thread that runs it: matching on the
 * main thread would block its event loop, its timers and its signal handlers until the match ends, which
 * for a catastrophically backtracking pattern is never. Terminating the worker stops V8 mid-backtrack.
 */
export const matchRegexBounded: RegexMatcher = async (request) => {
  if (request.signal?.aborted) return { status: 'aborted' };
  const kept = takeIdle();
  const worker = kept ?? startWorker();
  // A match under way keeps the process alive, as any awaited work does; an idle worker does not.
  worker.ref();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: BoundedMatchOutcome, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      worker.off('online', start).off('message', onReply).off('error', onError).off('exit', onExit);
      if (reusable) {
        keepIdle(worker);
        resolve(outcome);
        return;
      }
      // Resolve once the thread is gone, so a timed-out pattern stops burning CPU before the next step.
      worker.terminate().then(
        () => resolve(outcome),
        () => resolve(outcome),
      );
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
    // The deadline starts once the thread runs, so the time a fresh worker takes to start is not
    // counted against the pattern.
    const start = () => {
      timer = setTimeout(
        () => settle({ status: 'timedOut', timeoutMs: request.timeoutMs }, false),
        Math.min(request.timeoutMs, MAX_TIMER_MS),
      );
      const message: MatchWorkerRequest = { pattern: request.pattern, flags: request.flags, text: request.text };
      worker.postMessage(message);
    };
    worker.on('message', onReply).on('error', onError).on('exit', onExit);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (kept === undefined) worker.once('online', start);
    else start();
  });
};

function startWorker(): Worker {
  const worker = new Worker(MATCH_WORKER_SOURCE, { eval: true, env: {} });
  // Errors are reported by the match under way; without a listener an error event would throw here.
  worker.on('error', () => {});
  return worker;
}

function keepIdle(worker: Worker): void {
  if (idle !== undefined) {
    void worker.terminate();
    return;
  }
  // A kept worker must never hold a finished process open.
  worker.unref();
  const forget = () => {
    if (idle?.worker === worker) idle = undefined;
  };
  worker.once('exit', forget);
  idle = { worker, forget };
}

function takeIdle(): Worker | undefined {
  const taken = idle;
  if (taken === undefined) return undefined;
  idle = undefined;
  taken.worker.off('exit', taken.forget);
  return taken.worker;
}
