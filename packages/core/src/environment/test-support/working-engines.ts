import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from '../../workspace/remove-tree.js';
import { engineBuild } from '../engines/engine-build.js';
import { type ContainerEngine, probeEngine } from '../engines/engines.js';
import { buildHostImage } from './host-image.js';

// The container engines that build a Dockerfile with a RUN here, for tests to run under: an engine
// that answers `info` may still fail to run a step (rootless Podman without subordinate ids), and a
// test of an engine that cannot work here says nothing about gz-bench.

/** The engines among Docker and Podman that build `FROM <image of host files>` + `RUN` here. */
export async function workingEngines(): Promise<ContainerEngine[]> {
  const found: ContainerEngine[] = [];
  const scratch = await mkdtemp(join(tmpdir(), 'gzb-engines-'));
  try {
    const archive = await buildHostImage({}, join(scratch, 'build'), join(scratch, 'base.tar'));
    await writeFile(join(scratch, 'Dockerfile'), 'FROM base\nRUN echo ok > /ok\n');
    for (const engine of ['docker', 'podman'] as const) {
      if (!(await probeEngine(engine)).works) continue;
      const built = await engineBuild(engine, {
        dockerfile: join(scratch, 'Dockerfile'),
        context: scratch,
        baseImages: { base: archive },
        cacheDir: join(scratch, 'cache'),
        bwrap: 'bwrap',
        stepTimeoutMs: 120_000,
      }).catch(() => undefined);
      if (built !== undefined) found.push(engine);
    }
  } finally {
    await removeTree(scratch);
  }
  return found;
}
