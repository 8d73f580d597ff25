// Vitest's test timeout runs from the moment a test starts, and a case may wait long for a slot of
// the run before it starts for real. So the generated tests have no Vitest timeout, and this bound,
// started once the slot is granted, takes its place: the longest the case can take when each of its
// commands runs to its timeout (caseBudgetMs), which the case's own bounds always reach first.

/** A case that outlived its budget: the abort reason its commands see, and the error of its test. */
export class CaseBudgetError extends Error {
  override name = 'CaseBudgetError';

  constructor(readonly budgetMs: number) {
    super(
      `the case did not finish within its budget of ${Math.ceil(budgetMs / 1000)}s (each of its commands run to its timeout, plus preparation), so it was stopped`,
    );
  }
}

/** What `runWithinBudget` gives back. */
export interface BudgetedRun<T> {
  value: T;
  /** The budget ran out and `controller` was aborted before the task ended. */
  exceeded: boolean;
}

/**
 * Runs `task` and aborts `controller` (with a CaseBudgetError) if it is still running after
 * `budgetMs`. A task that then still does not end within `settleMs` is given up on: the promise
 * rejects with that error, while the task goes on ending in the background.
 */
export function runWithinBudget<T>(
  budgetMs: number,
  settleMs: number,
  controller: AbortController,
  task: () => Promise<T>,
): Promise<BudgetedRun<T>> {
  return new Promise((resolve, reject) => {
    let exceeded = false;
    let settleTimer: NodeJS.Timeout | undefined;
    const budgetTimer = setTimeout(() => {
      exceeded = true;
      const error = new CaseBudgetError(budgetMs);
      controller.abort(error);
      settleTimer = setTimeout(() => reject(error), settleMs);
    }, budgetMs);
    const stop = () => {
      clearTimeout(budgetTimer);
      clearTimeout(settleTimer);
    };
    task().then(
      (value) => {
        stop();
        resolve({ value, exceeded });
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
