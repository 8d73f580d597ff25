import { rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { afterAll } from 'vitest';
import { createTempProject, type TempProject } from './project.js';

/** Creates what a test file needs on disk and removes it all once the file is done. */
export interface FileCleanup {
  /** A temp project with these files (see createTempProject), removed after the file. */
  project(files?: Record<string, string | object>): Promise<TempProject>;
  /** Removes a path the run left behind after the file; a kept workspace goes with its whole case area. */
  removeLater(path: string): void;
}

/** Registers the removals with `afterAll`: call it once, at the top level of a test file. */
export function cleanupAfterAll(): FileCleanup {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });
  return {
    async project(files = {}) {
      const created = await createTempProject(files);
      cleanups.push(() => created.remove());
      return created;
    },
    removeLater(path) {
      // A kept workspace is `gz-bench-…/workspace`; its HOME and TMPDIR are beside it.
      const area = basename(path) === 'workspace' && basename(dirname(path)).startsWith('gz-bench-');
      cleanups.push(() => rm(area ? dirname(path) : path, { recursive: true, force: true }));
    },
  };
}
