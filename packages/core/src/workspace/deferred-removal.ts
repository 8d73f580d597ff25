import { atNextCommandStart } from '../process/command-start.js';
import { type CaseArea, removeCaseArea } from './case-area.js';
import { RemoveTreeError } from './remove-tree.js';

// Removing a trivial case's area is some ten directory operations (its four directories, the check
// HOME and temp dir, owner record, prompt and git config), each 0.2–0.6 ms on the ext4 temp dir of a
// 2-core machine: a few ms that a serial run spent between the end of one case and the start of the
// next. A case run with `deferRemoval` leaves its area here, once its processes are dead, and the
// removal starts as the next command of the process starts, while the harness only waits on that
// command. Until removed, an area stays tracked (exit-cleanup.ts), so a process that exits first
// still removes it, and its owner record tells the next run's janitor whose it was.

const pending: CaseArea[] = [];
const removing = new Set<Promise<void>>();
const problems: string[] = [];

/** Leaves `area`, whose processes are all dead, to be removed when the next command starts or on `settleDeferredRemovals`. */
export function deferAreaRemoval(area: CaseArea): void {
  if (pending.length === 0) atNextCommandStart(startDeferredRemovals);
  pending.push(area);
}

/** Starts removing the areas left so far; called as a command starts. Never throws. */
export function startDeferredRemovals(): void {
  for (const area of pending.splice(0)) {
    const removal = removeCaseArea(area).catch((error: unknown) => {
      problems.push(areaCleanupProblem(area, 'removed', error));
    });
    removing.add(removal);
    void removal.finally(() => removing.delete(removal));
  }
}

/**
 * Removes every area left and waits for the removals under way; resolves with what could not be
 * removed since the last call (one line each), which only the caller can still report.
 */
export async function settleDeferredRemovals(): Promise<string[]> {
  startDeferredRemovals();
  await Promise.all(removing);
  return problems.splice(0);
}

/** The warning of an area that could not be removed or kept, which stays on disk for a later sweep. */
export function areaCleanupProblem(area: CaseArea, action: 'removed' | 'kept', error: unknown): string {
  const reason =
    error instanceof RemoveTreeError ? error.reason : error instanceof Error ? error.message : String(error);
  return `the case area ${area.root} could not be ${action} (${reason}); it is removed when this run ends, or by the next run`;
}
