import { chmod, lstat, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Prefix of every case workspace under the OS temp dir, so stray ones are easy to recognise. */
export const WORKSPACE_PREFIX = 'gz-bench-';

/** Creates a fresh, empty workspace under `parent` (the OS temp dir by default) and returns its real path. */
export async function createWorkspace(parent: string = tmpdir()): Promise<string> {
  // The real path, so that symlink checks compare like with like (macOS's /var is a link to /private/var).
  return realpath(await mkdtemp(join(parent, WORKSPACE_PREFIX)));
}

/**
 * Removes a workspace and everything in it. An agent may have made directories unreadable, so a
 * failed removal restores owner permissions and tries again. A workspace replaced by a symlink is
 * removed as a link: its target is never touched.
 */
export async function removeWorkspace(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    await restoreOwnerAccess(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 2 });
  }
}

async function restoreOwnerAccess(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats?.isDirectory()) return;
  await chmod(path, 0o700).catch(() => {});
  const entries = await readdir(path).catch(() => []);
  await Promise.all(entries.map((entry) => restoreOwnerAccess(join(path, entry))));
}
