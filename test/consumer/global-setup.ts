import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT } from '../support/paths.js';
import { PACKAGES, readRepoManifest, runOk, since, userEnv } from './support.js';

/**
 * Globalsetup of the `consumer` project: builds the packages (so dist is current) and packs each ONCE
 * per run with `pnpm pack`, as a release would, then provides the tarballs to the tests as
 * `gzConsumerPack`. The tarballs are removed when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const start = performance.now();
  const env = { ...userEnv(), PATH: process.env.PATH ?? '' }; // pnpm and the repo's tsc, as `pnpm test` has them
  const versions = PACKAGES.map((pkg) => readRepoManifest(pkg.dir).version);
  const version = versions[0] ?? '';
  if (versions.some((v) => v !== version)) {
    throw new Error(`the packages are released together, but their versions differ: ${versions.join(', ')}`);
  }

  await runOk('pnpm', ['run', 'build'], { cwd: REPO_ROOT, env });
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-consumer-pack-')));
  const tarballs: string[] = [];
  for (const pkg of PACKAGES) {
    await runOk('pnpm', ['--filter', pkg.name, 'pack', '--pack-destination', dir], { cwd: REPO_ROOT, env });
    const tarball = join(dir, `${pkg.tarballPrefix}-${version}.tgz`);
    if (!existsSync(tarball)) throw new Error(`pnpm pack of ${pkg.name} made no ${tarball}`);
    tarballs.push(tarball);
  }
  const [core = '', plugin = ''] = tarballs;
  project.provide('gzConsumerPack', { dir, version, core, plugin });
  console.info(`gz-bench consumer: built and packed ${version} in ${since(start)} ms`);

  return () => rm(dir, { recursive: true, force: true });
}
