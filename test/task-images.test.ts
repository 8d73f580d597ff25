import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeSandbox } from '@gz-bench/core';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { buildHostImage } from '../packages/core/src/environment/test-support/host-image.js';
import { workingEngines } from '../packages/core/src/environment/test-support/working-engines.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { runCli } from './support/run.js';

// Public benchmark tasks whose Dockerfile installs what the host lacks: with their base image named
// (`--base-image`, no registry here) the Dockerfile is built without a daemon and the task runs in
// it, its oracle passing and a no-op failing; without it the task runs on the host and says so.

const { project } = cleanupAfterAll();
const probe = await probeSandbox();

const TASKS: Record<string, string> = {
  // Harbor: the tool its tests use is made by the Dockerfile's RUN.
  'tasks/answer/task.toml': 'version = "1.0"\n[verifier]\ntimeout_sec = 30.0\n[agent]\ntimeout_sec = 60.0\n',
  'tasks/answer/instruction.md': 'Write what `answer` prints to /app/answer.txt.\n',
  'tasks/answer/tests/test.sh': [
    '#!/bin/bash',
    'if [ "$(cat /app/answer.txt 2>/dev/null)" = "$(answer)" ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt',
  ].join('\n'),
  'tasks/answer/solution/solve.sh': 'answer > /app/answer.txt\n',
  'tasks/answer/environment/Dockerfile': [
    'FROM python:3.13-slim',
    'WORKDIR /app',
    "RUN mkdir -p /usr/local/bin && printf '#!/bin/sh\\necho forty-two\\n' > /usr/local/bin/answer && chmod 755 /usr/local/bin/answer",
    '',
  ].join('\n'),
  // Terminal-Bench 1: the tool is COPYed from the build context; the tests never are.
  'tasks/tally/task.yaml': 'instruction: Write what tally prints to /app/out.txt.\nmax_test_timeout_sec: 30\n',
  'tasks/tally/run-tests.sh': '#!/bin/bash\ntest "$(cat /app/out.txt)" = "$(tally)" && test ! -e /app/run-tests.sh\n',
  'tasks/tally/solution.sh': 'tally > /app/out.txt\n',
  'tasks/tally/Dockerfile': [
    'FROM ghcr.io/laude-institute/t-bench/python-3-13:20250620',
    'WORKDIR /app',
    'COPY --chmod=755 tally.sh /usr/local/bin/tally',
    'COPY . /app/',
    '',
  ].join('\n'),
  'tasks/tally/tally.sh': '#!/bin/sh\necho 7\n',
};

/** The base image of the tasks' Dockerfiles: what their RUN lines and tests use. */
const BASE_IMAGE = { programs: ['/bin/bash', '/bin/chmod', '/usr/bin/printf', '/usr/bin/test'] };

async function taskProject() {
  const temp = await project(TASKS);
  const tmp = join(temp.dir, 'tmp');
  await mkdir(tmp);
  await buildHostImage(BASE_IMAGE, join(temp.dir, 'image-build'), join(temp.dir, 'base.tar'));
  return { temp, tmp, env: { TMPDIR: tmp, GZ_BENCH_CACHE_DIR: join(temp.dir, 'cache') } };
}

// The daemonless builder always; Docker and Podman where they build here.
const engines = ['bwrap', ...(probe.available ? await workingEngines() : [])];

const BASES = [
  '--base-image',
  'python:3.13-slim=base.tar',
  '--base-image',
  'ghcr.io/laude-institute/t-bench/python-3-13:20250620=base.tar',
];

describe.skipIf(!probe.available)('public tasks in the images of their Dockerfiles', () => {
  it.each(engines)(
    'builds each Dockerfile once with %s: the oracle passes in it, a no-op fails, and a second run builds nothing',
    async (engine) => {
      const { temp, tmp, env } = await taskProject();
      const args = ['check-suite', 'tasks', '--sandbox', 'bwrap', '--engine', engine, ...BASES];
      const first = await runCli(args, { cwd: temp.dir, env, timeoutMs: 120_000 });
      expect(first.exitCode, `${first.stdout}\n${first.stderr}`).toBe(0);
      expect(first.stdout).toContain('gz-bench: all 2 cases fail with a no-op agent and pass with their own solution');
      // Each engine's own words for the step: gz-bench's "step 3/3: RUN", Podman's "STEP 3/3: RUN", Docker's.
      expect(first.stderr).toMatch(
        /gz-bench: building tasks\/answer\/environment\/Dockerfile: .*RUN mkdir -p \/usr\/local\/bin/,
      );
      // With its base named, nothing of the Dockerfile is left unreproduced.
      expect(first.stdout).not.toContain('not reproduced here');
      expect(await readdir(tmp)).toEqual([]);

      const second = await runCli(args, { cwd: temp.dir, env, timeoutMs: 120_000 });
      expect(second.exitCode, `${second.stdout}\n${second.stderr}`).toBe(0);
      expect(second.stderr).not.toContain('gz-bench: building');
    },
  );

  it("records the base image's substitution in the row, and runs the agent with the image's programs", async () => {
    const { temp, env } = await taskProject();
    const result = await runCli(
      [
        'run',
        'tasks/answer',
        '--sandbox',
        'bwrap',
        ...BASES.slice(0, 2),
        '--cmd',
        'answer > /app/answer.txt',
        '--json',
      ],
      { cwd: temp.dir, env, timeoutMs: 120_000 },
    );
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const [row] = JSON.parse(String(result.stdout)).results;
    expect(row.passed).toBe(true);
    expect(row.warnings).toContain(`base image python:3.13-slim is ${join(temp.dir, 'base.tar')} (baseImages)`);
  });

  it('runs on the host without the base image, and says how to name one', async () => {
    const { temp, env } = await taskProject();
    const result = await runCli(['check-suite', 'tasks', '--sandbox', 'bwrap'], {
      cwd: temp.dir,
      env,
      timeoutMs: 120_000,
    });
    // The host has no `answer` and no `tally`: the oracles fail there, and the report says why.
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      [
        'tasks/answer/task.toml: answer: not reproduced here:',
        '  - the image of environment/Dockerfile (the case runs on the host until --base-image python:3.13-slim=ARCHIVE names its base)',
        "  - the image python:3.13-slim (FROM): the host's own tools are used instead",
        '  - RUN mkdir -p /usr/local/bin && printf',
      ].join('\n'),
    );
    expect(await readFile(join(temp.dir, 'tasks/answer/environment/Dockerfile'), 'utf8')).toContain('FROM');
  });

  it('import copies each build context, less the tests, and the imported suite builds the same images', async () => {
    const { temp, env } = await taskProject();
    const written = await runCli(['import', 'tasks', '--out', 'bench', '--name', 'public'], { cwd: temp.dir, env });
    expect(written.exitCode, String(written.stderr)).toBe(0);
    const suite = JSON.parse(await readFile(join(temp.dir, 'bench/public.bench.json'), 'utf8'));
    const tally = suite.cases.find((testCase: { id: string }) => testCase.id === 'tally');
    expect(tally.environment).toEqual({
      dockerfile: 'public/tally/environment/Dockerfile',
      context: 'public/tally/environment',
      fallback: 'host',
    });
    expect((await readdir(join(temp.dir, 'bench/public/tally/environment'))).sort()).toEqual([
      'Dockerfile',
      'tally.sh',
    ]);
    const proved = await runCli(['check-suite', 'bench/public.bench.json', '--sandbox', 'bwrap', ...BASES], {
      cwd: temp.dir,
      env,
      timeoutMs: 120_000,
    });
    expect(proved.exitCode, `${proved.stdout}\n${proved.stderr}`).toBe(0);
  });

  it.each(engines.filter((engine) => engine !== 'bwrap'))(
    "builds on a base image of %s's own store, named by no --base-image",
    async (engine) => {
      const { temp, env } = await taskProject();
      // As a user who has the image: loaded, and tagged as the task's FROM names it.
      const own = `gz-bench-task-base:${process.pid}`;
      await buildHostImage({ ...BASE_IMAGE, tag: own }, join(temp.dir, 'own-build'), join(temp.dir, 'own.tar'));
      const loaded = await execa(engine, ['load', '-i', join(temp.dir, 'own.tar')], { reject: false });
      expect(loaded.exitCode, String(loaded.stderr)).toBe(0);
      for (const name of ['python:3.13-slim', 'ghcr.io/laude-institute/t-bench/python-3-13:20250620']) {
        expect((await execa(engine, ['tag', own, name], { reject: false })).exitCode).toBe(0);
      }
      try {
        const result = await runCli(['check-suite', 'tasks', '--sandbox', 'bwrap', '--engine', engine], {
          cwd: temp.dir,
          env,
          timeoutMs: 120_000,
        });
        expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
        expect(result.stdout).not.toContain('not reproduced here');
      } finally {
        await execa(engine, ['rmi', own, 'python:3.13-slim', 'ghcr.io/laude-institute/t-bench/python-3-13:20250620'], {
          reject: false,
        });
      }
    },
  );

  it('refuses a --base-image that names no archive, in one line', async () => {
    const { temp, env } = await taskProject();
    const result = await runCli(['check-suite', 'tasks', '--base-image', 'python:3.13-slim=missing.tar'], {
      cwd: temp.dir,
      env,
    });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr).split('\n')[0]).toBe(
      'gz-bench: --base-image python:3.13-slim=missing.tar: missing.tar is not there',
    );
  });
});
