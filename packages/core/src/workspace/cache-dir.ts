import { tmpdir } from 'node:os';
import { guard, releaseGuarded } from '../process/guardian.js';
import { createOwnedDir } from './owned-dirs.js';
import { removeTree } from './remove-tree.js';

/** A directory for the caches of one run, and the way to remove it. */
export interface RunCacheDir {
  /** `<tmp>/gz-bench-cache-<pid>-<start time>-XXXXXX`, a real path. */
  path: string;
  /**
   * Removes it. Never throws: what cannot be removed now is tried again by the guardian once the
   * process ends, and by the next run's cleanStaleAreas.
   */
  remove(): Promise<void>;
}

/**
 * Creates a cache dir for one run under `parent` (the OS temp dir by default), named after this
 * process. Remove it with `remove()`; should the process end before (a second Ctrl-C, SIGKILL), its
 * guardian removes it, and failing that the next run's cleanStaleAreas. No signal handler is
 * installed for it: the caller's own handling of Ctrl-C, which still needs the caches, stays whole.
 */
export async function createRunCacheDir(parent: string = tmpdir()): Promise<RunCacheDir> {
  const path = await createOwnedDir(parent, 'cache');
  guard({ kind: 'dir', value: path });
  return {
    path,
    async remove() {
      try {
        await removeTree(path);
        releaseGuarded({ kind: 'dir', value: path });
      } catch {}
    },
  };
}
