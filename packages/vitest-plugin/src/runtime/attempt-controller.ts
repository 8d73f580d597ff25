/** A controller for one attempt of a case, and the way to let go of the test's signal afterwards. */
export interface AttemptController {
  controller: AbortController;
  /** Stops listening to the test's signal; call it once the attempt has settled. */
  release(): void;
}

/**
 * A controller for this attempt only, aborted with the test's signal. Vitest 4.1 hands a retry the
 * signal its timed-out attempt already aborted; an aborted signal at the start of an attempt is
 * stale, so only a later abort counts. Vitest keeps every test's signal for the whole run: a listener
 * left on it would keep this controller, and all it reaches, alive once per case.
 */
export function attemptController(testSignal: AbortSignal): AttemptController {
  const controller = new AbortController();
  if (testSignal.aborted) return { controller, release: () => {} };
  const onAbort = (): void => controller.abort(testSignal.reason);
  testSignal.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => testSignal.removeEventListener('abort', onAbort) };
}
