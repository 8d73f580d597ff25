import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase } from '../case/run-case.js';
import { probeSandbox } from '../process/sandbox.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import { type ContainerEngine, type EngineMode, runEngine } from './engines/engines.js';
import { IMAGE_CACHE_ENV } from './image-store.js';
import { buildHostImage } from './test-support/host-image.js';
import { workingEngines } from './test-support/working-engines.js';

// Cases whose environment is an image run setup, the agent and command checks in the image's
// userland, on a fresh overlay per trial, with the image's Env and WorkingDir.

const probe = await probeSandbox();
const ONLY_IN_IMAGE = '/usr/bin/gz-bench-only-in-image';

let root: string;
let suiteDir: string;
let areas: string;
const savedCache = process.env[IMAGE_CACHE_ENV];

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-image-')));
  suiteDir = join(root, 'suite');
  areas = join(root, 'areas');
  await mkdir(suiteDir);
  await mkdir(areas);
  process.env[IMAGE_CACHE_ENV] = join(root, 'cache');
  await buildHostImage(
    {
      files: {
        [ONLY_IN_IMAGE]: { script: '#!/bin/sh\necho from-image\n' },
        '/app/seed.txt': 'seeded by the image\n',
        '/etc/os-release': 'ID=gz-bench-test\n',
      },
      env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'GREETING=hello-from-image'],
      workingDir: '/app',
    },
    join(root, 'build-good'),
    join(suiteDir, 'image.tar'),
  );
  await buildHostImage({ withoutNodeLibraries: true }, join(root, 'build-bare'), join(suiteDir, 'bare.tar'));
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env[IMAGE_CACHE_ENV];
  else process.env[IMAGE_CACHE_ENV] = savedCache;
  await removeTree(root);
});

function imageCase(overrides: Partial<Case> = {}): Case {
  return {
    id: 'in-image',
    prompt: 'p',
    environment: { archive: 'image.tar' },
    setup: ['echo setup > /etc/setup-mark'],
    checks: [
      { kind: 'fileContains', path: 'out.txt', text: 'from-image' },
      { kind: 'fileContains', path: 'out.txt', text: 'seeded by the image' },
      { kind: 'fileContains', path: 'out.txt', text: 'hello-from-image' },
      { kind: 'fileContains', path: 'out.txt', text: 'cwd /app' },
      { kind: 'fileContains', path: 'out.txt', text: `node ${process.version}` },
      // Checks run in the image too, and see what setup and the agent changed in it.
      { kind: 'command', run: `test -f /etc/setup-mark && test -f /etc/agent-mark && ${ONLY_IN_IMAGE}` },
    ],
    ...overrides,
  };
}

const AGENT = [
  `${ONLY_IN_IMAGE} > out.txt`,
  'cat seed.txt >> out.txt',
  'echo "$GREETING" >> out.txt',
  'echo "cwd $(pwd)" >> out.txt',
  `echo "node $(node -p process.version)" >> out.txt`,
  'echo agent > /etc/agent-mark',
].join(' && ');

describe.skipIf(!probe.available)('a case in an image (bwrap)', () => {
  it("runs setup, the agent and checks in the image's userland, with its Env and WorkingDir", async () => {
    expect(existsSync(ONLY_IN_IMAGE)).toBe(false);
    const result = await runCase(imageCase(), { cmd: AGENT, suiteDir, sandbox: { kind: 'bwrap' }, tmpDir: areas });
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
    // Nothing of the trial is left: no area, no overlay mount.
    expect(await readdir(areas)).toEqual([]);
    expect(await readFile('/proc/self/mounts', 'utf8')).not.toContain(areas);
  });

  it('gives every trial a fresh overlay: what one trial wrote into the image, the next does not see', async () => {
    const first = await runCase(imageCase({ setup: [], checks: [] }), {
      cmd: 'echo one > /etc/trial-mark',
      suiteDir,
      sandbox: { kind: 'bwrap' },
      tmpDir: areas,
    });
    expect(first.passed).toBe(true);
    const second = await runCase(
      imageCase({ setup: [], checks: [{ kind: 'command', run: 'test ! -e /etc/trial-mark' }] }),
      { cmd: 'test ! -e /etc/trial-mark', suiteDir, sandbox: { kind: 'bwrap' }, tmpDir: areas },
    );
    expect(second.error).toBeUndefined();
    expect(second.passed).toBe(true);
  });

  it('fails the check when the agent does not do the work (a no-op agent)', async () => {
    const result = await runCase(imageCase(), { cmd: 'true', suiteDir, sandbox: { kind: 'bwrap' }, tmpDir: areas });
    expect(result.passed).toBe(false);
    expect(result.outcome).toBe('failed');
  });

  it("refuses an image the host's node cannot run in, saying what it lacks", async () => {
    const result = await runCase(imageCase({ environment: { archive: 'bare.tar' } }), {
      cmd: AGENT,
      suiteDir,
      sandbox: { kind: 'bwrap' },
      tmpDir: areas,
    });
    expect(result.outcome).toBe('harnessError');
    expect(result.error).toContain('libstdc++.so.6');
  });

  it("shows a globally installed agent CLI in the image, on the host's node, read-only", async () => {
    // As `npm install -g` lays one out: <prefix>/bin/tool -> ../lib/node_modules/tool/cli.js.
    const prefix = join(root, 'global');
    await mkdir(join(prefix, 'bin'), { recursive: true });
    await mkdir(join(prefix, 'lib', 'node_modules', 'tool'), { recursive: true });
    await writeFile(join(prefix, 'lib', 'node_modules', 'tool', 'helper.js'), 'exports.word = "from-helper";\n');
    await writeFile(
      join(prefix, 'lib', 'node_modules', 'tool', 'cli.js'),
      '#!/usr/bin/env node\nrequire("node:fs").writeFileSync("out.txt", require("./helper.js").word + " " + process.argv[2]);\n',
      { mode: 0o755 },
    );
    await symlink('../lib/node_modules/tool/cli.js', join(prefix, 'bin', 'gzb-global-tool'));
    const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
    const result = await runCase(
      imageCase({ setup: [], checks: [{ kind: 'fileContains', path: 'out.txt', text: 'from-helper hello' }] }),
      { cmd: 'gzb-global-tool hello', suiteDir, sandbox: { kind: 'bwrap' }, tmpDir: areas, env },
    );
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
  });

  it('says which archive is missing or broken', async () => {
    await writeFile(join(suiteDir, 'broken.tar'), 'not a tar at all');
    for (const archive of ['missing.tar', 'broken.tar']) {
      const result = await runCase(imageCase({ environment: { archive } }), {
        cmd: AGENT,
        suiteDir,
        sandbox: { kind: 'bwrap' },
        tmpDir: areas,
      });
      expect(result.outcome).toBe('harnessError');
      expect(result.error).toContain(archive);
    }
  });
});

// The daemonless builder always; Docker and Podman where they work here.
const engines: EngineMode[] = ['bwrap', ...(probe.available ? await workingEngines() : [])];

describe.skipIf(!probe.available).each(engines)('a case whose environment is a Dockerfile (engine %s)', (engine) => {
  beforeAll(async () => {
    await mkdir(join(suiteDir, 'environment'), { recursive: true });
    await writeFile(
      join(suiteDir, 'environment', 'Dockerfile'),
      [
        'FROM debian:bookworm-slim',
        'WORKDIR /srv/task',
        'COPY --chmod=755 tool.sh /usr/local/bin/task-tool',
        'RUN echo "made by RUN" > /srv/task/input.txt',
        '',
      ].join('\n'),
    );
    await writeFile(join(suiteDir, 'environment', 'tool.sh'), '#!/bin/sh\necho tool-from-dockerfile\n');
  });

  const dockerfileCase = (overrides: Partial<Case> = {}): Case => ({
    id: 'in-built-image',
    prompt: 'p',
    environment: { dockerfile: 'environment/Dockerfile' },
    baseImages: { 'debian:bookworm-slim': 'image.tar' },
    checks: [
      { kind: 'fileContains', path: 'out.txt', text: 'tool-from-dockerfile' },
      { kind: 'fileContains', path: 'out.txt', text: 'made by RUN' },
      { kind: 'fileContains', path: 'out.txt', text: 'cwd /srv/task' },
    ],
    ...overrides,
  });
  const agent = 'task-tool > out.txt && cat input.txt >> out.txt && echo "cwd $(pwd)" >> out.txt';

  it("builds the image, runs in it, and records the base image's substitution", async () => {
    const result = await runCase(dockerfileCase(), {
      cmd: agent,
      suiteDir,
      sandbox: { kind: 'bwrap' },
      tmpDir: areas,
      engine,
    });
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
    expect(result.warnings).toContain(`base image debian:bookworm-slim is ${join(suiteDir, 'image.tar')} (baseImages)`);
    const noop = await runCase(dockerfileCase(), {
      cmd: 'true',
      suiteDir,
      sandbox: { kind: 'bwrap' },
      tmpDir: areas,
      engine,
    });
    expect(noop.outcome).toBe('failed');
  });

  it('is a harness error naming the base image when it is not here', async () => {
    const result = await runCase(dockerfileCase({ baseImages: {} }), {
      cmd: agent,
      suiteDir,
      sandbox: { kind: 'bwrap' },
      tmpDir: areas,
      engine,
    });
    expect(result.outcome).toBe('harnessError');
    expect(result.error).toContain('the base image debian:bookworm-slim is not here');
  });

  it('runs on the host, saying why, when the environment falls back to it', async () => {
    const result = await runCase(
      dockerfileCase({
        baseImages: {},
        environment: { dockerfile: 'environment/Dockerfile', fallback: 'host' },
        checks: [{ kind: 'fileContains', path: 'out.txt', text: 'on the host' }],
      }),
      { cmd: 'echo on the host > out.txt', suiteDir, sandbox: { kind: 'bwrap' }, tmpDir: areas, engine },
    );
    expect(result.passed).toBe(true);
    expect(result.warnings?.some((line) => line.startsWith('run on the host: ') && line.includes('debian'))).toBe(true);
  });
});

describe.skipIf(!probe.available)('a case whose environment names an image of an engine', () => {
  it('is a harness error under the bwrap engine, which holds no images by name', async () => {
    const result = await runCase(imageCase({ environment: { image: 'python:3.12-slim' } }), {
      cmd: AGENT,
      suiteDir,
      sandbox: { kind: 'bwrap' },
      tmpDir: areas,
      engine: 'bwrap',
    });
    expect(result.outcome).toBe('harnessError');
    expect(result.error).toContain(
      "the image python:3.12-slim is of a container engine's store, and no docker or podman works here",
    );
  });

  it.each(engines.filter((engine) => engine !== 'bwrap'))('runs in an image of the %s store, named', async (engine) => {
    const tag = `gz-bench-named-${process.pid}:latest`;
    await buildHostImage(
      { files: { [ONLY_IN_IMAGE]: { script: '#!/bin/sh\necho from-image\n' } }, tag },
      join(root, `named-${engine}`),
      join(root, `named-${engine}.tar`),
    );
    expect(
      (await runEngine(engine as ContainerEngine, ['load', '-i', join(root, `named-${engine}.tar`)])).exitCode,
    ).toBe(0);
    try {
      const result = await runCase(
        imageCase({
          environment: { image: tag },
          setup: [],
          checks: [{ kind: 'fileContains', path: 'out.txt', text: 'from-image' }],
        }),
        { cmd: `${ONLY_IN_IMAGE} > out.txt`, suiteDir, sandbox: { kind: 'bwrap' }, tmpDir: areas, engine },
      );
      expect(result.error).toBeUndefined();
      expect(result.passed).toBe(true);
    } finally {
      await runEngine(engine as ContainerEngine, ['rmi', tag]);
    }
  });
});

describe('a case in an image without bwrap', () => {
  it('is not run, and says the image needs the bwrap sandbox', async () => {
    const result = await runCase(imageCase(), { cmd: AGENT, suiteDir, sandbox: { kind: 'none' }, tmpDir: areas });
    expect(result.outcome).toBe('harnessError');
    expect(result.error).toContain('bwrap sandbox');
  });
});
