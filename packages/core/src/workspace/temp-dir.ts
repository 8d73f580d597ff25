import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The temp directory cannot hold case areas; the message says which directory, why, and how to fix it. */
export class TempDirError extends Error {
  readonly code = 'GZ_BENCH_TEMP_DIR';
  override name = 'TempDirError';
}

/**
 * Checks that `dir` (the OS temp dir by default, i.e. `TMPDIR`) can hold case areas: it exists, is a
 * directory, and takes a new directory with a file in it (a full disk often still takes an empty
 * directory). Rejects with a TempDirError whose message says what to do.
 */
export async function assertUsableTempDir(dir: string = tmpdir()): Promise<void> {
  const stats = await stat(dir).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (stats instanceof Error)
    throw new TempDirError(tempDirFault(stats, dir) ?? `${named(dir)} is unusable: ${stats.message}`);
  if (!stats.isDirectory()) throw new TempDirError(`${named(dir)} is not a directory; ${FIX}`);
  let probe: string | undefined;
  try {
    probe = await mkdtemp(join(dir, 'gz-bench-probe-'));
    await writeFile(join(probe, 'probe'), 'gz-bench\n');
  } catch (error) {
    const fault = tempDirFault(error, dir);
    throw new TempDirError(fault ?? `${named(dir)} is unusable: ${(error as Error).message}`, { cause: error });
  } finally {
    if (probe !== undefined) await rm(probe, { recursive: true, force: true }).catch(() => {});
  }
}

const FIX = 'point TMPDIR at a writable directory';

/**
 * One line for a file system error met while creating something under the temp dir `dir`, or undefined
 * when the error is not a fault of the environment (a bug, which should surface as it is).
 */
export function tempDirFault(error: unknown, dir: string = tmpdir()): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${named(dir)} does not exist; create it or ${FIX}`;
    case 'ENOTDIR':
      return `${named(dir)} is not a directory; ${FIX}`;
    case 'EROFS':
      return `${named(dir)} is on a read-only file system; ${FIX}`;
    case 'EACCES':
    case 'EPERM':
      return `${named(dir)} is not writable by this user; ${FIX}`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `${named(dir)} is full (${code}); free some space or ${FIX} with room`;
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code}) to create a case area in ${dir}; raise the limit (ulimit -n)`;
    default:
      return undefined;
  }
}

/** `the temp directory /x (TMPDIR)`: says where the directory came from, which is what the user can change. */
function named(dir: string): string {
  const fromEnv = process.env.TMPDIR !== undefined && process.env.TMPDIR !== '' && dir === tmpdir();
  return `the temp directory ${dir}${fromEnv ? ' (TMPDIR)' : ''}`;
}
