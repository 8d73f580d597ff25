import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanStaleAreas } from '@gz-bench/core';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentPath, REPO_ROOT } from './support/paths.js';
import { readPidFile, waitUntilEmpty, waitUntilEnded } from './support/processes.js';

// A family case's tool server has a FIFO directory beside the case area: a harness that ends while
// the agent runs leaves neither behind, its guardian removes both after a SIGKILL, and one killed with
// its guardian leaves nothing the next run's cleanup does not remove.

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

  it('on Ctrl-C removes the case area and the tool server FIFO directory', async () => {
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

  it('killed outright, its guardian ends the agent and removes both directories', async () => {
    const parent = join(dir, 'tmp');
    await mkdir(parent);
    const run = harness(join(dir, 'pids'), parent);
    seen = await readPidFile(join(dir, 'pids'));
    expect((await readdir(parent)).some((name) => name.startsWith('gz-bench-tools-'))).toBe(true);
    run.kill('SIGKILL');
    await run;
    expect(await waitUntilEnded(seen, 20_000)).toEqual([]);
    expect(await waitUntilEmpty(parent)).toEqual([]);
  });

  it('killed with its guardian, leaves a FIFO directory that the next run removes', async () => {
    const parent = join(dir, 'tmp');
    await mkdir(parent);
    const run = harness(join(dir, 'pids'), parent);
    seen = await readPidFile(join(dir, 'pids'));
    const pid = run.pid as number;
    // Stopped first, so that the harness cannot see its guardian die: what is left is the next run's.
    process.kill(pid, 'SIGSTOP');
    const guardians = await guardiansOf(pid);
    expect(guardians).toHaveLength(1);
    for (const guardian of guardians) process.kill(guardian, 'SIGKILL');
    process.kill(pid, 'SIGKILL');
    await run;
    expect((await readdir(parent)).some((name) => name.startsWith('gz-bench-tools-'))).toBe(true);
    await cleanStaleAreas(parent);
    expect(await readdir(parent)).toEqual([]);
    expect(await waitUntilEnded(seen)).toEqual([]);
  });
});

/** The guardian processes among the children of `pid`. */
async function guardiansOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8');
    children.push(...text.split(' ').filter(Boolean).map(Number));
  }
  const found: number[] = [];
  for (const child of children) {
    const commandLine = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes('gz-bench-guardian')) found.push(child);
  }
  return found;
}
