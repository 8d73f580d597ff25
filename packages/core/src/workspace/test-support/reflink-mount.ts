import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
// mkfs tools live in the sbin directories, which a user's PATH may lack.
const PATH = `${process.env.PATH ?? ''}:/usr/local/sbin:/usr/sbin:/sbin`;

/** A copy-on-write file system mounted for a test, or why there is none. */
export interface ReflinkMount {
  /** Where it is mounted; undefined when it could not be. */
  mount: string | undefined;
  /** What it is (`xfs on a loop device`), or why it was not made. */
  describe: string;
  unmount?: () => Promise<void>;
}

/**
 * Mounts a small XFS (or btrfs) image on a loop device, whose files can be cloned. Needs root and
 * mkfs.xfs or mkfs.btrfs; says why not otherwise, so the test that needs it is skipped with a reason.
 */
export async function mountReflinkFileSystem(): Promise<ReflinkMount> {
  if (process.getuid?.() !== 0) return { mount: undefined, describe: 'skipped: loop mounts need root' };
  const kinds: Array<{ name: string; mkfs: string[] }> = [
    { name: 'xfs', mkfs: ['mkfs.xfs', '-q', '-m', 'reflink=1'] },
    { name: 'btrfs', mkfs: ['mkfs.btrfs', '-q'] },
  ];
  const reasons: string[] = [];
  for (const kind of kinds) {
    const dir = await mkdtemp(join(tmpdir(), `gz-bench-reflink-${kind.name}-`));
    const image = join(dir, 'image');
    const mount = join(dir, 'mnt');
    try {
      await run('truncate', ['-s', '320M', image]);
      const [mkfs = '', ...args] = kind.mkfs;
      await run(mkfs, [...args, image], { env: { ...process.env, PATH } });
      await mkdir(mount);
      await run('mount', ['-o', 'loop', image, mount], { env: { ...process.env, PATH } });
    } catch (error) {
      reasons.push(`${kind.name}: ${firstLine(error)}`);
      await rm(dir, { recursive: true, force: true });
      continue;
    }
    return {
      mount,
      describe: `${kind.name} on a loop device`,
      unmount: async () => {
        await run('umount', ['-l', mount], { env: { ...process.env, PATH } }).catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  return {
    mount: undefined,
    describe: `skipped: no copy-on-write file system could be mounted (${reasons.join('; ')})`,
  };
}

/** Whether the file's blocks are shared with another file (a clone), by `filefrag -v`. */
export async function sharesExtents(file: string): Promise<boolean> {
  const { stdout } = await run('filefrag', ['-v', file], { env: { ...process.env, PATH } });
  return /\bshared\b/.test(stdout);
}

function firstLine(error: unknown): string {
  const text =
    (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
  return text.split('\n')[0] ?? text;
}
