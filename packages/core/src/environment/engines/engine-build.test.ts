import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../../workspace/remove-tree.js';
import { BaseImageMissing, type BuildRequest } from '../dockerfile/build-image.js';
import { buildHostImage } from '../test-support/host-image.js';
import { workingEngines } from '../test-support/working-engines.js';
import { engineBuild } from './engine-build.js';
import { engineImage } from './engine-image.js';
import { probeEngine, resolveEngine, runEngine } from './engines.js';

// Dockerfiles built by Docker or Podman where one works here, FROM an image of host files loaded
// into the engine (no registry is reached), then unpacked into gz-bench's store.

const engines = await workingEngines();

let root: string;
let context: string;
let base: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-engine-')));
  context = join(root, 'context');
  await mkdir(join(context, 'tests'), { recursive: true });
  base = await buildHostImage({ programs: ['/bin/chmod'] }, join(root, 'base-build'), join(root, 'base.tar'));
  await writeFile(join(context, 'tool.sh'), '#!/bin/sh\necho tool-from-context\n');
  await writeFile(join(context, 'tests', 'secret.txt'), 'the tests stay out of the image\n');
});
afterAll(async () => {
  await removeTree(root);
});

function request(dockerfile: string, overrides: Partial<BuildRequest> = {}): BuildRequest {
  return {
    dockerfile,
    context,
    baseImages: { 'python:3.13-slim': base },
    cacheDir: join(root, 'cache'),
    bwrap: 'bwrap',
    stepTimeoutMs: 120_000,
    ...overrides,
  };
}

async function dockerfile(name: string, lines: string[]): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe.each(engines)('engineBuild (%s)', { timeout: 60_000 }, (engine) => {
  it('builds FROM a loaded base with WORKDIR, COPY and RUN; a second build builds nothing', async () => {
    const file = await dockerfile(`Dockerfile.${engine}.good`, [
      'FROM python:3.13-slim',
      'ENV GREETING=hi',
      'WORKDIR /app',
      'COPY tool.sh /usr/local/bin/tool',
      'RUN chmod 755 /usr/local/bin/tool && /usr/local/bin/tool > /app/built.txt && echo "$GREETING" >> /app/built.txt',
    ]);
    const progress: string[] = [];
    const built = await engineBuild(engine, request(file, { onProgress: (line) => progress.push(line) }));
    expect(await readFile(join(built.image.rootfs, 'app/built.txt'), 'utf8')).toBe('tool-from-context\nhi\n');
    expect(built.image.config.workingDir).toBe('/app');
    expect(built.image.config.env).toContain('GREETING=hi');
    expect(built.substitutions).toEqual([{ from: 'python:3.13-slim', to: base }]);
    expect(progress.some((line) => line.includes('RUN chmod 755'))).toBe(true);

    const again: string[] = [];
    const second = await engineBuild(engine, request(file, { onProgress: (line) => again.push(line) }));
    expect(again).toEqual([]);
    expect(second.image.digest).toBe(built.image.digest);
    expect(second.image.unpacked).toBe(false);
  });

  it('keeps what `ignore` leaves out away from the builder', async () => {
    const file = await dockerfile(`Dockerfile.${engine}.ignored`, ['FROM python:3.13-slim', 'COPY . /app/']);
    const built = await engineBuild(engine, request(file, { ignore: ['tests'] }));
    expect(existsSync(join(built.image.rootfs, 'app/tool.sh'))).toBe(true);
    expect(existsSync(join(built.image.rootfs, 'app/tests'))).toBe(false);
  });

  it("names a failing step and shows its output, in the engine's words", async () => {
    const file = await dockerfile(`Dockerfile.${engine}.fails`, [
      'FROM python:3.13-slim',
      'RUN echo "no such package: pytest" && exit 3',
    ]);
    const failed = engineBuild(engine, request(file));
    await expect(failed).rejects.toThrow(`${file}: ${engine} build failed with exit code`);
    await expect(failed).rejects.toThrow(/no such package: pytest/);
  });

  it('refuses a FROM that is neither in baseImages nor in its store, reaching no registry', async () => {
    const file = await dockerfile(`Dockerfile.${engine}.missing`, ['FROM gz-bench-absent/ubuntu:24.04', 'RUN true']);
    const failed = engineBuild(engine, request(file));
    await expect(failed).rejects.toBeInstanceOf(BaseImageMissing);
    await expect(failed).rejects.toThrow('the base image gz-bench-absent/ubuntu:24.04 is not here');
  });

  it("unpacks an image of the engine's store by name, and names one it lacks", async () => {
    // The base archive's own tag (gz-bench-test:latest), loaded as a user would have it.
    expect((await runEngine(engine, ['load', '-i', base])).exitCode).toBe(0);
    const image = await engineImage(engine, 'gz-bench-test:latest', join(root, 'cache'));
    expect(existsSync(join(image.rootfs, 'bin/sh'))).toBe(true);
    expect(image.config.env).toContain('PATH=/usr/local/bin:/usr/bin:/bin');
    await expect(engineImage(engine, 'gz-bench-absent:none', join(root, 'cache'))).rejects.toThrow(
      `the image gz-bench-absent:none is not in ${engine}'s store; ${engine} pull gz-bench-absent:none`,
    );
  });
});

describe('resolveEngine', () => {
  it('takes a named engine only where it works, and says what stops it', async () => {
    for (const engine of ['docker', 'podman'] as const) {
      const probe = await probeEngine(engine);
      const resolved = await resolveEngine(engine);
      if (probe.works) expect(resolved).toBe(engine);
      else
        expect(resolved).toEqual({ problem: `the ${engine} engine does not work here: ${probe.reason}; ${probe.fix}` });
    }
    expect(await resolveEngine('bwrap')).toBe('bwrap');
  });
});
