import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateBwrap, probeSandbox } from '../../process/sandbox.js';
import { removeTree } from '../../workspace/remove-tree.js';
import { buildHostImage } from '../test-support/host-image.js';
import { BaseImageMissing, type BuildRequest, buildImage } from './build-image.js';

// A Dockerfile built without a daemon, FROM an image made of the host's own files (no registry is
// reachable): WORKDIR, ENV, ARG, COPY from the context and from an earlier stage, RUN in the stage.

const probe = await probeSandbox();

let root: string;
let context: string;
let base: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-build-')));
  context = join(root, 'context');
  await mkdir(join(context, 'src'), { recursive: true });
  base = await buildHostImage(
    { programs: ['/usr/bin/tr', '/bin/chmod'], env: ['PATH=/usr/bin:/bin', 'FROM_BASE=yes'] },
    join(root, 'base-build'),
    join(root, 'base.tar'),
  );
  await writeFile(join(context, 'src', 'greet.sh'), '#!/bin/sh\necho "hello, $1"\n');
  await writeFile(join(context, 'src', 'notes.txt'), 'notes\n');
  await writeFile(join(context, 'secret.key'), 'left out by .dockerignore\n');
  await writeFile(join(context, '.dockerignore'), '# keys stay home\nsecret.key\n');
});
afterAll(async () => {
  await removeTree(root);
});

function request(dockerfile: string, overrides: Partial<BuildRequest> = {}): BuildRequest {
  return {
    dockerfile,
    context,
    baseImages: { 'python:3.12-slim': base },
    cacheDir: join(root, 'cache'),
    bwrap: locateBwrap() ?? 'bwrap',
    stepTimeoutMs: 60_000,
    ...overrides,
  };
}

async function dockerfile(name: string, lines: string[]): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe.skipIf(!probe.available)('buildImage (bwrap)', () => {
  it('builds FROM a base image with WORKDIR, ENV, ARG, COPY and RUN, and keeps the config', async () => {
    const file = await dockerfile('Dockerfile.good', [
      'ARG FLAVOUR=plain',
      'FROM python:3.12-slim AS tools',
      'RUN echo "built in a stage" > /stage-output',
      '',
      'FROM python:3.12-slim',
      'ARG FLAVOUR',
      'ENV APP_HOME=/app \\',
      '    GREETING="good day" \\',
      '    PATH=/usr/local/bin:$PATH',
      'WORKDIR $APP_HOME',
      'COPY --chmod=755 src/greet.sh /usr/local/bin/greet',
      'COPY src/ ./src/',
      'COPY --from=tools /stage-output ./from-stage.txt',
      'RUN greet "$GREETING" | tr a-z A-Z > built.txt && echo "$FLAVOUR $FROM_BASE" >> built.txt',
      'CMD ["greet"]',
    ]);
    const lines: string[] = [];
    const built = await buildImage(request(file, { onProgress: (line) => lines.push(line) }));
    const { rootfs, config } = built.image;
    expect(await readFile(join(rootfs, 'app/built.txt'), 'utf8')).toBe('HELLO, GOOD DAY\nplain yes\n');
    expect(await readFile(join(rootfs, 'app/from-stage.txt'), 'utf8')).toBe('built in a stage\n');
    expect(await readFile(join(rootfs, 'app/src/notes.txt'), 'utf8')).toBe('notes\n');
    expect((await stat(join(rootfs, 'usr/local/bin/greet'))).mode & 0o777).toBe(0o755);
    // The earlier stage is scaffolding: its own output is not in the image.
    expect(existsSync(join(rootfs, 'stage-output'))).toBe(false);
    expect(config.workingDir).toBe('/app');
    expect(config.env).toEqual(
      expect.arrayContaining([
        'PATH=/usr/local/bin:/usr/bin:/bin',
        'FROM_BASE=yes',
        'APP_HOME=/app',
        'GREETING=good day',
      ]),
    );
    expect(built.substitutions).toEqual([{ from: 'python:3.12-slim', to: base }]);
    expect(lines[0]).toBe('step 1/11: FROM python:3.12-slim');
    expect(lines).toContain('step 9/11: COPY --from=tools /stage-output ./from-stage.txt');
    // A second build of the same Dockerfile, context and base builds nothing.
    const again: string[] = [];
    const second = await buildImage(request(file, { onProgress: (line) => again.push(line) }));
    expect(again).toEqual([]);
    expect(second.image.digest).toBe(built.image.digest);
    expect(second.image.unpacked).toBe(false);
  });

  it('builds again when a byte of the context changes', async () => {
    const file = await dockerfile('Dockerfile.notes', ['FROM python:3.12-slim', 'COPY src/notes.txt /notes.txt']);
    const first = await buildImage(request(file));
    await writeFile(join(context, 'src', 'notes.txt'), 'notes, changed\n');
    const second = await buildImage(request(file));
    expect(second.image.digest).not.toBe(first.image.digest);
    expect(await readFile(join(second.image.rootfs, 'notes.txt'), 'utf8')).toBe('notes, changed\n');
    await writeFile(join(context, 'src', 'notes.txt'), 'notes\n');
  });

  it('names the failing step, its line, and shows its output', async () => {
    const file = await dockerfile('Dockerfile.fails', [
      'FROM python:3.12-slim',
      'WORKDIR /app',
      'RUN echo "about to fail" && echo "no such package: pytest" >&2 && exit 3',
      'RUN echo never',
    ]);
    const failed = buildImage(request(file));
    await expect(failed).rejects.toThrow(`${file}:3 (step 3/4, RUN): RUN echo`);
    await expect(failed).rejects.toThrow(/failed with exit code 3:\nabout to fail\nno such package: pytest/);
  });

  it('leaves out what .dockerignore names, and keeps COPY inside the context', async () => {
    const ignored = await dockerfile('Dockerfile.secret', ['FROM python:3.12-slim', 'COPY secret.key /key']);
    await expect(buildImage(request(ignored))).rejects.toThrow(
      /secret\.key: not in the build context .* \.dockerignore/,
    );
    const outside = await dockerfile('Dockerfile.escape', ['FROM python:3.12-slim', 'COPY ../base.tar /base.tar']);
    await expect(buildImage(request(outside))).rejects.toThrow(/\.\.\/base\.tar: not in the build context/);
  });

  it('refuses a FROM that names no image here, saying how to name one', async () => {
    const file = await dockerfile('Dockerfile.missing', ['FROM ubuntu:24.04', 'RUN true']);
    const failed = buildImage(request(file));
    await expect(failed).rejects.toBeInstanceOf(BaseImageMissing);
    await expect(failed).rejects.toThrow(`${file}:1: the base image ubuntu:24.04 is not here; name an archive`);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'runs a RUN as root without the powers to reach the host (no CAP_SYS_ADMIN, no CAP_MKNOD)',
    async () => {
      const file = await dockerfile('Dockerfile.caps', [
        'FROM python:3.12-slim',
        'RUN cat /proc/self/status > /status',
      ]);
      const built = await buildImage(request(file));
      const status = await readFile(join(built.image.rootfs, 'status'), 'utf8');
      const effective = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0'}`);
      const has = (bit: number) => (effective >> BigInt(bit)) & 1n;
      // CAP_SYS_ADMIN is bit 21, CAP_MKNOD 27; CAP_CHOWN (0) and CAP_SETUID (7) stay, as in Docker.
      expect([has(21), has(27)]).toEqual([0n, 0n]);
      expect([has(0), has(7)]).toEqual([1n, 1n]);
    },
  );

  it('stops a RUN that outlasts its time', async () => {
    const file = await dockerfile('Dockerfile.slow', ['FROM python:3.12-slim', 'RUN sleep 30']);
    await expect(buildImage(request(file, { stepTimeoutMs: 300 }))).rejects.toThrow(/was stopped after 0\.3 s/);
  });
});
