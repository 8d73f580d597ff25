import { cp, lstat, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { suitePath } from '../suite/suite-path.js';

/** A starting file of the workspace (a Dockerfile's `COPY`), as the suite names it. */
export interface StartingFile {
  from: string;
  to: string;
}

/**
 * Copies each starting file or directory into the workspace, in order, after the fixture and before
 * setup: a directory's entries merge into `to`, a file becomes `to` (or goes inside it, when `to` is a
 * directory or ends in "/"), as `COPY` does. The suite's validation keeps `to` inside the workspace.
 * Returns why the workspace could not be filled, or undefined.
 */
export async function copyStartingFiles(
  files: readonly StartingFile[],
  suiteDir: string,
  workspace: string,
): Promise<string | undefined> {
  for (const { from, to } of files) {
    const source = suitePath(from, suiteDir);
    try {
      const stats = await lstat(source);
      const target = join(workspace, to);
      const into =
        !stats.isDirectory() && (to.endsWith('/') || to === '.' || (await isDirectory(target)))
          ? join(target, source.split('/').pop() as string)
          : target;
      await mkdir(stats.isDirectory() ? into : dirname(into), { recursive: true });
      // Symlinks stay links, never followed out of the task's directory; the files keep their modes.
      await cp(source, into, { recursive: true, verbatimSymlinks: true, force: true });
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      return `could not copy the starting file ${from} to ${to} (${reason})`;
    }
  }
  return undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isDirectory() === true;
}

/** Paths the sandbox must show empty, told apart: directories get a tmpfs, files /dev/null. */
export async function hiddenEntries(paths: readonly string[]): Promise<{ dirs: string[]; files: string[] }> {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const path of new Set(paths)) {
    const stats = await lstat(path).catch(() => undefined);
    // Validated when the suite loaded; one removed since has nothing left to hide.
    if (stats?.isDirectory()) dirs.push(path);
    else if (stats?.isFile()) files.push(path);
  }
  return { dirs, files };
}
