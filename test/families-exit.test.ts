import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanStaleAreas } from '@gz-bench/core';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentPath, REPO_ROOT } from './support/paths.js';
import { readPidFile, waitUntilEnded } from './support/processes.js';

// A family case's tool server has a socket directory beside the case area: a harness that ends while
// the agent runs leaves neither behind, and one killed outright leaves nothing the next run's cleanup
// does not remove.

function harness(pidFile: string, parent: string) {
  const script = `
    const { runCase } = await import(${JSON.stringify(join(REPO_ROOT, 'packages/core/dist/index.js'))});
    await runCase(
      { id: 'chase size 3', prompt: 'p', checks: [], family: { id: 'chase', kind: 'pointerChase', seed: 1, size: 3 } },
      { cmd: ${JSON.stringify(`'${process.execPath}' '${agentPath('grandchildren.mjs')}' '${pidFile}'`)}, tmpDir: ${JSON.stringify(parent)} },
    );`;
  return execa(process.execPath, ['--input-type=module', '-e', script], { reject: false, stdin: 'ignore' });
}

describe('a family case whose harness ends while the agent runs', () => {
  let dir: string;
  let seen: number[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gz-bench-family-exit-'));
  });
  afterEach(async () => {
    for (const pid of seen) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    seen = [];
    await rm(dir, { recursive: true, force: true });
  });

  it('on Ctrl-C removes the case area and the tool server socket directory', async () => {
    const parent = join(dir, 'tmp');
    await mkdir(parent);
    const run = harness(join(dir, 'pids'), parent);
    seen = await readPidFile(join(dir, 'pids'));
    expect((await readdir(parent)).some((name) => name.startsWith('gz-bench-tools-'))).toBe(true);
    run.kill('SIGINT');
    const result = await run;
    expect(result.signal).toBe('SIGINT');
    expect(await waitUntilEnded(seen)).toEqual([]);
    expect(await readdir(parent)).toEqual([]);
  });

  it('killed outright, leaves a socket directory that the next run removes', async () => {
    const parent = join(dir, 'tmp');
    await mkdir(parent);
    const run = harness(join(dir, 'pids'), parent);
    seen = await readPidFile(join(dir, 'pids'));
    run.kill('SIGKILL');
    await run;
    expect(await waitUntilEnded(seen, 20_000)).toEqual([]);
    expect((await readdir(parent)).some((name) => name.startsWith('gz-bench-tools-'))).toBe(true);
    await cleanStaleAreas(parent);
    expect(await readdir(parent)).toEqual([]);
  });
});
