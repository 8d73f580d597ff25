import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How `inPrivateTmpfs` mounts its file system. */
export interface TmpfsOptions {
  sizeKiB: number;
  readOnly?: boolean;
  /** Fill it up before the command starts, so that writing a byte fails with ENOSPC. */
  full?: boolean;
}

/**
 * Why a private tmpfs cannot be mounted here (not root, no `unshare`, no mount permission), or
 * undefined when it can. Tests of read-only and full temp dirs skip with this reason.
 */
export const privateTmpfsUnavailable: string | undefined = probe();

/**
 * A `via` prefix (see RunOptions) that runs the command in a private mount namespace, where a tmpfs
 * is mounted at `dir`: the mount is gone with the command, whatever happens to the test.
 */
export function inPrivateTmpfs(dir: string, options: TmpfsOptions): string[] {
  const flags = [`size=${options.sizeKiB}k`, ...(options.readOnly ? ['ro'] : [])].join(',');
  const fill = options.full ? 'head -c 100M /dev/zero > "$0/fill" 2>/dev/null; ' : '';
  return ['unshare', '-m', 'sh', '-c', `mount -t tmpfs -o ${flags} tmpfs "$0" && { ${fill}exec "$@"; }`, dir];
}

function probe(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = mkdtempSync(join(tmpdir(), 'gz-bench-mount-probe-'));
  try {
    const [file = '', ...args] = inPrivateTmpfs(dir, { sizeKiB: 64 });
    execFileSync(file, [...args, 'true'], { stdio: 'ignore' });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs in a private mount namespace here: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
