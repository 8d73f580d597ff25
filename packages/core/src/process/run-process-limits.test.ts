import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diskUsage } from './disk-usage.js';
import { agent, isRunning, killStrays, readPids, runIn, shellQuote } from './test-support/processes.js';
import type { RunProcessOptions } from './types.js';

const MiB = 1024 * 1024;

let dir: string;
let workspace: string;
const strays: number[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-limits-')));
  workspace = join(dir, 'workspace');
  await mkdir(workspace);
});

afterEach(async () => {
  killStrays(strays);
  await rm(dir, { recursive: true, force: true });
});

function run(command: string, overrides: Partial<RunProcessOptions> = {}) {
  return runIn(workspace, command, { timeoutMs: 30_000, ...overrides });
}

describe('runProcess: output limit', () => {
  it('ends a flood early and records the limit, not a timeout', async () => {
    const started = Date.now();
    const result = await run(agent('flood'), { maxOutputBytes: MiB });

    expect(result).toMatchObject({
      timedOut: false,
      aborted: false,
      exitCode: null,
      signal: 'SIGTERM',
      limitExceeded: { kind: 'output', limitBytes: MiB },
    });
    expect(result.limitExceeded?.observedBytes).toBeGreaterThan(MiB);
    // flood.mjs would write 1024 MiB; a few pipe buffers may still arrive after the signal.
    expect(result.output.totalBytes).toBeLessThan(64 * MiB);
    expect(result.output.text.startsWith('FLOOD-START\n')).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 20_000);

  it('ends the whole tree, grandchildren included', async () => {
    const pidFile = join(dir, 'pids.txt');
    // The grandchildren agent reports its tree; then output beyond the limit arrives from elsewhere.
    const command = `${agent('grandchildren', pidFile)} & echo agent=$!; while [ ! -s ${shellQuote(pidFile)} ]; do sleep 0.05; done; head -c 300000 /dev/zero; wait`;
    const result = await run(command, { maxOutputBytes: 100_000 });
    const agentPid = Number(/agent=(\d+)/.exec(result.output.text)?.[1]);
    const pids = [agentPid, ...(await readPids(pidFile))];
    strays.push(...pids);

    expect(result).toMatchObject({ timedOut: false, limitExceeded: { kind: 'output', limitBytes: 100_000 } });
    expect(pids).toHaveLength(3);
    expect(pids.every((pid) => pid > 0)).toBe(true);
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('records nothing when output stays within the limit', async () => {
    const result = await run('printf 12345', { maxOutputBytes: 5 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: { text: '12345' } });
    expect(result).not.toHaveProperty('limitExceeded');
  });
});

describe('runProcess: disk limit', () => {
  it('stops a 200 MiB fill at a 5 MiB cap far before it is done', async () => {
    // 1 MiB every 5 ms: 200 MiB would take at least a second.
    const result = await run(agent('fill-disk', '200', '5'), {
      maxDiskBytes: { path: workspace, limit: 5 * MiB, intervalMs: 20 },
    });

    expect(result).toMatchObject({
      timedOut: false,
      aborted: false,
      exitCode: null,
      limitExceeded: { kind: 'disk', limitBytes: 5 * MiB },
    });
    expect(result.limitExceeded?.observedBytes).toBeGreaterThan(5 * MiB);
    const onDisk = await diskUsage(workspace);
    expect(onDisk.bytes).toBeGreaterThan(5 * MiB);
    expect(onDisk.bytes).toBeLessThan(60 * MiB);
    expect(result.output.text).not.toContain('filled 200');
  }, 20_000);

  it('stops a fill at full speed too, with a bounded overshoot', async () => {
    const result = await run(agent('fill-disk', '200'), {
      maxDiskBytes: { path: workspace, limit: 5 * MiB, intervalMs: 5 },
    });
    expect(result.limitExceeded).toMatchObject({ kind: 'disk', limitBytes: 5 * MiB });
    expect((await readdir(workspace)).length).toBeLessThan(200);
  }, 20_000);

  it('catches a command that writes past the cap and exits between two polls', async () => {
    // One poll at the start (nothing written yet, the command sleeps first), the next a minute later: only
    // the final measurement can see it.
    const result = await run('sleep 0.5; head -c 20971520 /dev/zero > fill.bin', {
      maxDiskBytes: { path: workspace, limit: 5 * MiB, intervalMs: 60_000 },
    });
    expect(result).toMatchObject({
      exitCode: 0,
      timedOut: false,
      limitExceeded: { kind: 'disk', limitBytes: 5 * MiB, observedBytes: 20 * MiB },
    });
  });

  it('ends at once when the path is over the limit from the start', async () => {
    await writeFile(join(workspace, 'big.bin'), Buffer.alloc(2 * MiB));
    const started = Date.now();
    const result = await run('sleep 30', { maxDiskBytes: { path: workspace, limit: MiB, intervalMs: 60_000 } });
    expect(result).toMatchObject({ timedOut: false, limitExceeded: { kind: 'disk', observedBytes: 2 * MiB } });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('records nothing when the files stay within the limit, and keeps timeouts as they were', async () => {
    const within = await run(agent('fill-disk', '2'), { maxDiskBytes: { path: workspace, limit: 5 * MiB } });
    expect(within).toMatchObject({ exitCode: 0, timedOut: false });
    expect(within).not.toHaveProperty('limitExceeded');

    const timedOut = await run('sleep 30', { timeoutMs: 300, maxDiskBytes: { path: workspace, limit: 5 * MiB } });
    expect(timedOut).toMatchObject({ timedOut: true, aborted: false });
    expect(timedOut).not.toHaveProperty('limitExceeded');
  });
});

describe('runProcess: limit options', () => {
  it('rejects limits that are not byte counts, and a sandbox without an executable', async () => {
    await expect(run('true', { maxOutputBytes: -1 })).rejects.toThrow(RangeError);
    await expect(run('true', { maxDiskBytes: { path: workspace, limit: Number.NaN } })).rejects.toThrow(RangeError);
    await expect(run('true', { sandbox: { argv: [] } })).rejects.toThrow(/sandbox.argv/);
  });

  it('does not mutate the caller options', async () => {
    const options = { maxDiskBytes: { path: workspace, limit: 5 * MiB }, maxOutputBytes: 10 };
    const copy = structuredClone(options);
    await run('echo hi', options);
    expect(options).toEqual(copy);
  });
});
