import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyReachable } from '../../packages/core/src/process/test-support/reachable-copy.js';
import { REPO_ROOT } from './paths.js';

/** A copy of the repository (built packages and node_modules) that another user can run. */
export interface ReachableCheckout {
  /** The copy's root, in a directory every user can enter. */
  dir: string;
  /** The gz-bench bin script of the copy, to run with `node`. */
  cliScript: string;
  /** The copy's node_modules, for temp projects to link to. */
  nodeModules: string;
  dispose(): Promise<void>;
}

/**
 * Tests that run the CLI as `nobody` cannot run it from the checkout when the checkout lies under a
 * private directory (a clone in `mktemp -d`, a home of mode 0700): it is copied, mostly as hard links,
 * into the shared temp dir, which other users can reach.
 */
export async function reachableCheckout(): Promise<ReachableCheckout> {
  const parent = await mkdtemp(join(tmpdir(), 'gzb-test-checkout-'));
  const dir = join(parent, 'repo');
  try {
    await chmod(parent, 0o755);
    await copyReachable(REPO_ROOT, dir, { skip: ['.git', '.gz-bench'] });
  } catch (error) {
    await rm(parent, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    cliScript: join(dir, 'packages', 'vitest-plugin', 'bin', 'gz-bench.js'),
    nodeModules: join(dir, 'node_modules'),
    dispose: () => rm(parent, { recursive: true, force: true }),
  };
}
