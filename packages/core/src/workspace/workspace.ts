import { chmod, lstat, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackWorkspace } from '../process/exit-cleanup.js';

/** Prefix of every case workspace under the OS temp dir, so stray ones are easy to recognise. */
export const WORKSPACE_PREFIX = 'gz-bench-';

const untrackers = new Map<string, () => void>();

/**
 * Creates a fresh, empty workspace under `parent` (the OS temp dir by default) and returns its real
 * path. Until `removeWorkspace` or `releaseWorkspace`, it is removed should the process exit first.
 */
export async function createWorkspace(parent: string = tmpdir()): Promise<string> {
  // The real path, so that symlink checks compare like with like (macOS's /var is a link to /private/var).
  const dir = await realpath(await mkdtemp(join(parent, WORKSPACE_PREFIX)));
  untrackers.set(dir, trackWorkspace(dir));
  return dir;
}

/** Keeps a workspace for good: it is no longer removed when the process exits. */
export function releaseWorkspace(dir: string): void {
  untrackers.get(dir)?.();
  untrackers.delete(dir);
}

/**
 * Removes a workspace and everything in it. An agent may have made directories unreadable, so a
 * failed removal restores owner permissions and tries again. A workspace replaced by a symlink is
 * removed as a link: its target is never touched.
 */
export async function removeWorkspace(dir: string): Promise<void> {
  releaseWorkspace(dir);
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
