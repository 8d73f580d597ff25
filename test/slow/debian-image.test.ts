import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeSandbox } from '@gz-bench/core';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { packRootfs } from '../../packages/core/src/environment/test-support/host-image.js';
import { workingEngines } from '../../packages/core/src/environment/test-support/working-engines.js';
import { removeTree } from '../../packages/core/src/workspace/remove-tree.js';
import { cleanupAfterAll } from '../support/cleanup.js';
import { runCli } from '../support/run.js';

// The slow lane (`pnpm test:slow`): a realistic image, Debian bookworm with python3 made by
// debootstrap from Debian's packages, its tarball cached between runs. A Harbor task whose
// Dockerfile builds FROM it runs its oracle and a no-op under every engine here, and an agent's
// python3 is Debian's, not the host's.

const { project } = cleanupAfterAll();
const probe = await probeSandbox();
const canBootstrap = process.getuid?.() === 0 && existsSync('/usr/sbin/debootstrap');
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gz-bench-tests');
const DEBIAN = join(CACHE, 'debian-bookworm-python3.tar');

/** The cached tarball, made first when it is not there. */
async function debianImage(): Promise<string> {
  if (existsSync(DEBIAN)) return DEBIAN;
  await mkdir(CACHE, { recursive: true });
  const scratch = await mkdtemp(join(tmpdir(), 'gzb-debootstrap-'));
  try {
    const rootfs = join(scratch, 'rootfs');
    await execa(
      'debootstrap',
      ['--variant=minbase', '--include=python3', 'bookworm', rootfs, 'http://deb.debian.org/debian'],
      { timeout: 900_000 },
    );
    const partial = `${DEBIAN}.${process.pid}`;
    await packRootfs(rootfs, join(scratch, 'pack'), partial, {
      env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      tag: 'gz-bench-debian-python3:bookworm',
    });
    await rename(partial, DEBIAN);
    return DEBIAN;
  } finally {
    await removeTree(scratch);
  }
}

const TASK = {
  'tasks/answer/task.toml': 'version = "1.0"\n[verifier]\ntimeout_sec = 60.0\n[agent]\ntimeout_sec = 120.0\n',
  'tasks/answer/instruction.md': 'Write the answer python3 gives to /app/answer.txt.\n',
  'tasks/answer/tests/test.sh': [
    '#!/bin/bash',
    'if [ "$(cat /app/answer.txt 2>/dev/null)" = "$(cat /app/expected.txt)" ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt',
  ].join('\n'),
  'tasks/answer/solution/solve.sh': 'python3 -c "print(6 * 7)" > /app/answer.txt\n',
  'tasks/answer/environment/Dockerfile': [
    'FROM debian:bookworm-slim',
    'WORKDIR /app',
    'RUN python3 -c "print(6 * 7)" > /app/expected.txt',
    '',
  ].join('\n'),
};

describe.skipIf(!canBootstrap || !probe.available)('a Debian image with python3 (slow lane)', () => {
  it('runs a Harbor task built FROM it under every engine, and the agent gets its python3', async () => {
    const image = await debianImage();
    const temp = await project(TASK);
    const env = { TMPDIR: join(temp.dir, 'tmp'), GZ_BENCH_CACHE_DIR: join(temp.dir, 'cache') };
    await mkdir(env.TMPDIR);
    const base = ['--base-image', `debian:bookworm-slim=${image}`];
    for (const engine of ['bwrap', ...(await workingEngines())]) {
      const proved = await runCli(['check-suite', 'tasks', '--sandbox', 'bwrap', '--engine', engine, ...base], {
        cwd: temp.dir,
        env,
        timeoutMs: 600_000,
      });
      expect(proved.exitCode, `${engine}\n${proved.stdout}\n${proved.stderr}`).toBe(0);
    }
    const run = await runCli(
      [
        'run',
        'tasks/answer',
        '--sandbox',
        'bwrap',
        ...base,
        '--json',
        '--cmd',
        'python3 -c "import sys; print(sys.prefix, sys.version_info[:2])"',
      ],
      { cwd: temp.dir, env, timeoutMs: 600_000 },
    );
    const [row] = JSON.parse(String(run.stdout)).results;
    // The task fails (the answer is not 42), but what the agent's python3 printed is Debian's.
    expect(row.outcome).toBe('failed');
    expect(row.agent?.outputTail).toContain('/usr (3, 11)');
  });
});
