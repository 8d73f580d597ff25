import { rm } from 'node:fs/promises';
import { afterAll } from 'vitest';
import { createTempProject, type TempProject } from './project.js';

/** Creates what a test file needs on disk and removes it all once the file is done. */
export interface FileCleanup {
  /** A temp project with these files (see createTempProject), removed after the file. */
  project(files?: Record<string, string | object>): Promise<TempProject>;
  /** Removes a path the run left behind, such as a kept workspace, after the file. */
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
      cleanups.push(() => rm(path, { recursive: true, force: true }));
    },
  };
}
