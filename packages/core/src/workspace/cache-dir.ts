import { tmpdir } from 'node:os';
import { trackWorkspace } from '../process/exit-cleanup.js';
import { createOwnedDir } from './owned-dirs.js';
import { removeTree } from './remove-tree.js';

/** A directory for the caches of one run, and the way to remove it. */
export interface RunCacheDir {
  /** `<tmp>/gz-bench-cache-<pid>-<start time>-XXXXXX`, a real path. */
  path: string;
  /**
   * Removes it. Never throws: what cannot be removed now is tried again when the process ends, and
   * by the next run's cleanStaleAreas.
   */
  remove(): Promise<void>;
}

/**
 * Creates a cache dir for one run under `parent` (the OS temp dir by default), named after this
 * process. It is removed when the process ends, by any means: by the exit handlers, by the guardian
 * should the process be killed outright, and failing both by the next run's cleanStaleAreas.
 */
export async function createRunCacheDir(parent: string = tmpdir()): Promise<RunCacheDir> {
  const path = await createOwnedDir(parent, 'cache');
  const untrack = trackWorkspace(path);
  return {
    path,
    async remove() {
      try {
        await removeTree(path);
        untrack();
      } catch {}
    },
  };
}
