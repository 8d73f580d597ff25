import type { Vitest } from 'vitest/node';

/**
 * Whether this run updates baseline files: as it updates snapshots, on `-u` / `--update` or
 * `UPDATE_SNAPSHOT=all` (Vitest 4.1 and 5 resolve them all into `snapshotOptions.updateSnapshot`),
 * or while the watch mode's `u` key re-runs. `new`, the default outside CI, writes no snapshot that
 * exists, so it updates no baseline either.
 */
export function isBaselineUpdate(vitest: Vitest): boolean {
  const live = (vitest as { snapshot?: { options?: { updateSnapshot?: unknown } } }).snapshot?.options?.updateSnapshot;
  return (live ?? vitest.config.snapshotOptions?.updateSnapshot) === 'all';
}
