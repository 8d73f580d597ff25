import type { CaseLogs } from '../logs/case-logs.js';
import { compareWorkspace } from './compare.js';
import { renderChanges } from './render-diff.js';
import type { WorkspaceSnapshot } from './snapshot.js';
import type { WorkspaceChanges } from './types.js';

/**
 * Compares the workspace with its snapshot and writes the diff to `changes.diff` beside the logs (when
 * the case has logs): the row's `changes`, naming the file. A diff that cannot be written costs the
 * row its `file` and a warning, never the counts.
 */
export async function recordChanges(
  snapshot: WorkspaceSnapshot,
  logs: CaseLogs | undefined,
  warnings: string[],
): Promise<WorkspaceChanges> {
  const { changes, diff } = renderChanges(snapshot, await compareWorkspace(snapshot));
  if (logs === undefined) return changes;
  try {
    return { ...changes, file: await logs.writeFile('changes.diff', diff) };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    warnings.push(`the diff ${logs.location.display}/changes.diff could not be written (${reason})`);
    return changes;
  }
}
