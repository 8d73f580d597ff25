import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SuiteError } from '@gz-bench/core';

/**
 * Refuses, before anything is read, suite paths that `run` cannot hand to Vitest: Vite cuts a module
 * id at `?` (a query) and reads `\` as a path separator, so such a file would load as nothing; and a
 * pipe, FIFO or device can be read only once, by validation, before Vitest reads the file again.
 * Missing files and directories are left to the suite loader, whose messages say so.
 */
export async function assertRunnableSuitePath(given: string): Promise<void> {
  const absolute = resolve(given);
  // Quoted: the name may hold spaces, quotes or a line break, and the message must stay one line.
  const shown = JSON.stringify(given);
  const unservable = ['?', '\\'].find((char) => absolute.includes(char));
  if (unservable !== undefined) {
    throw refused(
      given,
      `cannot run suite file ${shown}: Vite cannot load a path that contains "${unservable}"; rename the file or move it`,
    );
  }
  const stats = await stat(absolute).catch(() => undefined);
  if (stats === undefined || stats.isFile() || stats.isDirectory()) return;
  const kind = stats.isFIFO() ? 'a pipe' : stats.isSocket() ? 'a socket' : 'a device';
  throw refused(
    given,
    `cannot run suite file ${shown}: it is ${kind}, not a regular file; save the suite to a file and run that`,
  );
}

function refused(file: string, detail: string): SuiteError {
  return new SuiteError({ code: 'GZ_BENCH_SUITE_UNREADABLE', file, filePrefix: false, detail });
}
