import type { SerializedError, TestRunEndReason } from 'vitest/node';

/** What Vitest says about a run whose cases did not all finish. */
export interface RunEnd {
  /** Errors outside any test, e.g. `Worker exited unexpectedly` when a worker was killed. */
  unhandledErrors: ReadonlyArray<SerializedError>;
  reason: TestRunEndReason;
}

/**
 * Why a suite file's cases have no result, for their rows: the file's own load error first, then what
 * Vitest reported outside the tests (a killed worker), then a cancelled run (`--bail`, Ctrl-C).
 */
export function notRunReason(end: RunEnd, moduleErrors: readonly string[] = []): string {
  const loadError = moduleErrors[0];
  if (loadError !== undefined) return `Vitest could not run the suite file: ${oneLine(loadError)}`;
  const unhandled = end.unhandledErrors[0];
  if (unhandled !== undefined) return `Vitest reported "${oneLine(innermostMessage(unhandled))}"`;
  if (end.reason === 'interrupted') return 'the run was cancelled first';
  return 'Vitest ended the run without running it';
}

/** The root cause's message: `Worker exited unexpectedly` rather than the pool's wrapper around it. */
function innermostMessage(error: SerializedError): string {
  let current: SerializedError = error;
  for (let depth = 0; depth < 10; depth++) {
    const cause = current.cause as SerializedError | undefined;
    if (typeof cause?.message !== 'string' || cause.message === '') break;
    current = cause;
  }
  return current.message;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
