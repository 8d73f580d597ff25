import { getEventListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agent, deadPid, isRunning, killStrays, pathOnlyEnv, readPids, runIn } from './test-support/processes.js';
import type { RunProcessOptions } from './types.js';

const MiB = 1024 * 1024;

function pidsIn(text: string, label: string): number[] {
  return [...text.matchAll(new RegExp(`${label}=(\\d+)`, 'g'))].map((match) => Number(match[1]));
}

let dir: string;
const strays: number[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-process-')));
});

afterEach(async () => {
  killStrays(strays);
  await rm(dir, { recursive: true, force: true });
});

function run(command: string, overrides: Partial<RunProcessOptions> = {}) {
  return runIn(dir, command, overrides);
}

describe('runProcess: results', () => {
  it('reports the exit code of a failing command without throwing', async () => {
    const result = await run('echo before; exit 3');
    expect(result).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false });
    expect(result.spawnError).toBeUndefined();
    expect(result.output.text).toBe('before\n');
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('reports the signal that ended the command', async () => {
    const result = await run('kill -USR1 $$');
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGUSR1', timedOut: false });
  });

  it('passes exactly options.env, nothing inherited from the harness', async () => {
    process.env.GZ_BENCH_TEST_LEAK = 'leaked';
    try {
      const result = await run('printf "%s|%s" "$ONLY_THIS" "$GZ_BENCH_TEST_LEAK"', {
        env: pathOnlyEnv({ ONLY_THIS: 'given' }),
      });
      expect(result.output.text).toBe('given|');
    } finally {
      delete process.env.GZ_BENCH_TEST_LEAK;
    }
  });

  it('closes stdin, so a command reading it sees end of file at once', async () => {
    const result = await run('cat; echo stdin-closed', { timeoutMs: 2000 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output.text).toBe('stdin-closed\n');
  });

  it('runs in options.cwd', async () => {
    const result = await run('pwd');
    expect(result.output.text).toBe(`${dir}\n`);
  });

  it('collects stdout and stderr into one text in arrival order', async () => {
    const result = await run('echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three');
    expect(result.output).toEqual({ text: 'one\ntwo\nthree\n', totalBytes: 14, droppedBytes: 0 });
  });

  it('replaces invalid UTF-8 with U+FFFD and keeps the text around it', async () => {
    const result = await run(agent('binary-output'));
    expect(result.exitCode).toBe(0);
    // 0xff and 0xfe are never valid; 0xc3 starts a sequence that "(" does not continue.
    expect(result.output.text).toBe('BIN-OK<\uFFFD\uFFFD\uFFFD(>BIN-OK\n');
    expect(result.output.totalBytes).toBe(19);
  });

  it('resolves with spawnError when the cwd does not exist', async () => {
    const result = await run('echo never', { cwd: join(dir, 'missing') });
    expect(result).toMatchObject({ exitCode: null, signal: null, timedOut: false, aborted: false });
    expect(result.spawnError).toMatch(/working directory does not exist: .*missing/);
    expect(result.output.text).toBe('');
  });
});

describe('runProcess: ending the process tree', () => {
  it('on timeout kills the shell, the agent, its child and its grandchild', async () => {
    const pidFile = join(dir, 'pids.txt');
    // `& … wait` keeps the shell alive as a separate process instead of exec-ing the agent.
    const command = `echo shell=$$; ${agent('grandchildren', pidFile)} & echo agent=$!; wait`;
    const result = await run(command, { timeoutMs: 1500 });

    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: 'SIGTERM' });
    expect(result.durationMs).toBeGreaterThanOrEqual(1400);
    const descendants = await readPids(pidFile);
    const pids = [...pidsIn(result.output.text, 'shell'), ...pidsIn(result.output.text, 'agent'), ...descendants];
    strays.push(...pids);
    expect(pids).toHaveLength(4);
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('kills an agent that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const started = Date.now();
    const result = await run(`exec ${agent('stubborn')}`, { timeoutMs: 700, killGraceMs: 300 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(result.output.text).toBe('ready\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives a SIGTERM-ignoring grandchild its grace period, then kills it, before resolving', async () => {
    const started = Date.now();
    const result = await run(`${agent('stubborn')} & echo stubborn=$!; wait`, { timeoutMs: 700, killGraceMs: 300 });
    const [stubborn] = pidsIn(result.output.text, 'stubborn');
    strays.push(stubborn ?? 0);
    // The shell dies of SIGTERM at once; the result still waits for the grace period to end the rest.
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGTERM' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(isRunning(stubborn ?? 0)).toBe(false);
  });

  it('does not wait out the grace period when the tree obeys SIGTERM', async () => {
    const started = Date.now();
    const result = await run(agent('sleeper'), { timeoutMs: 300, killGraceMs: 5000 });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGTERM' });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('kills background children left by a command that exits normally', async () => {
    const result = await run('sleep 100 & echo background=$!');
    const [background] = pidsIn(result.output.text, 'background');
    strays.push(background ?? 0);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(isRunning(background ?? 0)).toBe(false);
  });

  it('settles at once when a background grandchild holds the pipes', async () => {
    const started = Date.now();
    const result = await run('sleep 30 & echo hi');
    expect(result.exitCode).toBe(0);
    expect(result.output.text).toBe('hi\n');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.runIf(existsSync('/usr/bin/setsid'))('settles when a process that left the group holds the pipes', async () => {
    const started = Date.now();
    const result = await run('setsid sleep 30 & echo escaped=$!');
    strays.push(...pidsIn(result.output.text, 'escaped'));
    expect(result.exitCode).toBe(0);
    expect(result.output.text).toMatch(/^escaped=\d+\n$/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('runProcess: abort signal', () => {
  it('ends the tree when the signal aborts mid-run', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await run(agent('sleeper'), { signal: controller.signal, timeoutMs: 10_000 });
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null, signal: 'SIGTERM' });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('does not start the command when the signal is already aborted', async () => {
    const result = await run('touch started', { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null, signal: null, durationMs: 0 });
    expect(existsSync(join(dir, 'started'))).toBe(false);
  });

  it('leaves no listener on a long-lived signal', async () => {
    const controller = new AbortController();
    await run('true', { signal: controller.signal });
    await run('sleep 5', { signal: controller.signal, timeoutMs: 100 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('runProcess: bounded output', () => {
  it('keeps head and tail of a 200 MiB flood, with exact counts and a marker', async () => {
    const rssBefore = process.memoryUsage().rss;
    const result = await run(agent('flood', '200'), { timeoutMs: 30_000 });
    const rssGrowth = process.memoryUsage().rss - rssBefore;

    expect(result.exitCode).toBe(0);
    const { text, totalBytes, droppedBytes } = result.output;
    expect(totalBytes).toBe(200 * MiB);
    expect(droppedBytes).toBe(198 * MiB);
    expect(text.length).toBeLessThan(2.1 * MiB);
    expect(text.startsWith('FLOOD-START\n')).toBe(true);
    expect(text.endsWith('\nFLOOD-END\n')).toBe(true);
    expect(text).toContain(`\n[gz-bench: ${198 * MiB} bytes of output dropped]\n`);
    // Loose on purpose (GC timing): a collector that kept everything would grow by 200 MiB or more.
    expect(rssGrowth).toBeLessThan(100 * MiB);
  }, 20_000);

  it('honours outputLimitBytes', async () => {
    const result = await run('printf 0123456789abcdefghij', { outputLimitBytes: 4 });
    expect(result.output).toEqual({
      text: '0123\n[gz-bench: 12 bytes of output dropped]\nghij',
      totalBytes: 20,
      droppedBytes: 12,
    });
  });
});

describe('fake agents', () => {
  it('echo-args receives a prompt with spaces, quotes and $ as exactly one argument', async () => {
    const prompt = `write "hello" to it's file; $HOME && echo pwned`;
    const out = join(dir, 'record.json');
    const result = await run(agent('echo-args', prompt), {
      env: { PATH: process.env.PATH ?? '', ECHO_ARGS_OUT: out, GZ_BENCH_PROMPT: prompt, GZ_BENCH_DIR: dir },
    });
    expect(result.output.text).toBe('args-ok\n');
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({ argv: [prompt], prompt, dir, cwd: dir });
  });

  it('write-outside writes to the parent of its cwd and plants a symlink', async () => {
    const workspace = join(dir, 'workspace');
    await mkdir(workspace);
    const result = await run(agent('write-outside'), { cwd: workspace });
    expect(result.exitCode).toBe(0);
    expect(await readFile(join(dir, 'escaped.txt'), 'utf8')).toContain('written');
    expect((await lstat(join(workspace, 'link-out'))).isSymbolicLink()).toBe(true);
  });

  it('noop exits 0 with no output', async () => {
    const result = await run(agent('noop'));
    expect(result).toMatchObject({ exitCode: 0, output: { text: '', totalBytes: 0, droppedBytes: 0 } });
  });
});

// Guards the isRunning helper itself: without it, the kill assertions above could pass vacuously.
it('isRunning sees a live process and not a dead one', () => {
  expect(isRunning(process.pid)).toBe(true);
  expect(isRunning(deadPid())).toBe(false);
});
