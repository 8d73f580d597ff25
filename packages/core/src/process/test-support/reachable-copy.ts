import { chmod, copyFile, link, lstat, mkdir, readdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** What `copyReachable` should leave out, by entry name at any depth (`.git`). */
export interface ReachableCopyOptions {
  skip?: readonly string[];
}

// Entries handled at once: enough to keep the thread pool busy on a tree of thousands of files.
const BATCH = 64;

/**
 * Copies the tree `from` into `to` (which must not exist) so that any user can read it and run what
 * in it is executable, whatever the modes of the directories above `from`: a checkout under a private
 * parent (`mktemp -d`, mode 0700) is out of reach of another user, a copy in a shared temp dir is not.
 * Files are hard links where they are already readable by others (cheap, also for node_modules),
 * else copies made readable; directories are made 0755; symlinks are copied as they are, so relative
 * links (pnpm's node_modules) resolve inside the copy. Write nothing through the copy: a hard link
 * is the original file.
 */
export async function copyReachable(from: string, to: string, options: ReachableCopyOptions = {}): Promise<void> {
  const skip = new Set(options.skip ?? []);
  await mkdir(to, { mode: 0o755 });
  await chmod(to, 0o755);
  const entries = await readdir(from, { withFileTypes: true });
  const kept = entries.filter((entry) => !skip.has(entry.name));
  for (let start = 0; start < kept.length; start += BATCH) {
    await Promise.all(
      kept.slice(start, start + BATCH).map(async (entry) => {
        const source = join(from, entry.name);
        const target = join(to, entry.name);
        if (entry.isDirectory()) await copyReachable(source, target, options);
        else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
        else if (entry.isFile()) await linkOrCopy(source, target);
      }),
    );
  }
}

async function linkOrCopy(source: string, target: string): Promise<void> {
  const mode = (await lstat(source)).mode & 0o777;
  const othersCanUse = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
  if (othersCanUse) {
    try {
      await link(source, target);
      return;
    } catch {
      // Another file system (EXDEV) or protected hard links (EPERM): a copy serves as well.
    }
  }
  await copyFile(source, target);
  // Readable by all; executable by all where the owner could execute it.
  await chmod(target, (mode & 0o100) !== 0 ? 0o755 : 0o644);
}
