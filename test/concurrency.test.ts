import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result, ResultPromise } from 'execa';
import { describe, type ExpectStatic, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginConfig } from './support/plugin-project.js';
import { processesWithEnv, waitUntilEnded } from './support/processes.js';
import type { TempProject } from './support/project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';

// One concurrency limit for the whole run: at most n cases at once across every suite file, through
// the CLI and through `vitest run`. Every case's agent is fixtures/agents/log-interval.mjs, which
// logs when it started and ended and in which workspace, in a log outside the workspaces; the cases
// run unsandboxed so that it may write there. Each run has its own TMPDIR, which must be empty once
// the run is over: no case area, no cache dir, no socket dir of the run's slots.

const { project } = cleanupAfterAll();
const REPORT = 'out/report.json';

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** A project with a private TMPDIR and the agent's log, both removed after the file. */
async function spreadProject(files: Record<string, string | object> = {}) {
  const p = await project(files);
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  const log = join(p.dir, 'agents.log');
  const agent = (ms: number) => nodeCommand(agentPath('log-interval.mjs'), log, String(ms));
  return { p, tmp, log, agent };
}

/** The agent, sleeping as many ms as the case's prompt says. */
function agentCmd(log: string): string {
  return `${nodeCommand(agentPath('log-interval.mjs'), log)} {{prompt}}`;
}

/** `files` suite files of `cases` cases each, `s<k>` with cases `c<m>`, and `extra(k)` in each case of `s<k>`. */
async function writeSuites(
  p: TempProject,
  files: number,
  cases: number,
  extra: (file: number) => object = () => ({}),
): Promise<string[]> {
  const paths: string[] = [];
  for (let k = 1; k <= files; k++) {
    const path = `bench/s${k}.bench.json`;
    await p.write(path, {
      name: `s${k}`,
      cases: Array.from({ length: cases }, (_, m) => ({ id: `c${m + 1}`, prompt: 'p', checks: [], ...extra(k) })),
    });
    paths.push(path);
  }
  return paths;
}

/** Every `s<k> > c<m>` in suite order: files by number (or the other way round), then cases. */
function suiteOrder(files: number, cases: number, { filesReversed = false } = {}): string[] {
  const numbers = Array.from({ length: files }, (_, k) => k + 1);
  if (filesReversed) numbers.reverse();
  return numbers.flatMap((k) => Array.from({ length: cases }, (_, m) => `s${k} > c${m + 1}`));
}

interface AgentRun {
  pid: number;
  start: number;
  /** Undefined for an agent that never got to the end of its sleep. */
  end: number | undefined;
  cwd: string;
}

async function readAgentRuns(log: string): Promise<AgentRun[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  const runs = new Map<number, AgentRun>();
  for (const line of text.split('\n')) {
    const [kind, pid, time, ...cwd] = line.split(' ');
    if (kind === 'start')
      runs.set(Number(pid), { pid: Number(pid), start: Number(time), end: undefined, cwd: cwd.join(' ') });
    const run = runs.get(Number(pid));
    if (kind === 'end' && run) run.end = Number(time);
  }
  return [...runs.values()];
}

/** The most agents that ran at the same time; one that ended is no longer running at that moment. */
function maxInFlight(runs: AgentRun[]): number {
  const events = runs.flatMap((run) => [
    [run.start, 1],
    [run.end ?? Number.POSITIVE_INFINITY, -1],
  ]);
  events.sort(([a = 0, da = 0], [b = 0, db = 0]) => a - b || da - db);
  let running = 0;
  let most = 0;
  for (const [, delta = 0] of events) {
    running += delta;
    most = Math.max(most, running);
  }
  return most;
}

/** The run left nothing: no process that inherited its TMPDIR, no agent, nothing in TMPDIR. */
async function expectNothingLeft(expect: ExpectStatic, tmp: string, runs: AgentRun[]): Promise<void> {
  expect(await waitUntilEnded(runs.map((run) => run.pid))).toEqual([]);
  const deadline = Date.now() + 10_000;
  let left = await processesWithEnv('TMPDIR', tmp);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = await processesWithEnv('TMPDIR', tmp);
  }
  expect(left).toEqual([]);
  expect(await readdir(tmp)).toEqual([]);
}

/** The abstract Unix sockets listening now (`@name`), as /proc/net/unix lists them. */
async function abstractSockets(): Promise<string[]> {
  const table = await readFile('/proc/net/unix', 'utf8');
  return (
    table
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      // Flags 00010000: accepting connections (the server's socket; its connections carry its name too).
      .filter((fields) => fields[3] === '00010000' && fields[7]?.startsWith('@') === true)
      .map((fields) => fields[7] ?? '')
  );
}

function rowNames(report: Report): string[] {
  return report.results.map((row) => `${row.suite} > ${row.id}`);
}

describe.concurrent('one concurrency limit for the whole run', () => {
  it('gz-bench run --concurrency 4: 8 files × 8 cases, exactly 4 at once, results and report in suite order', async ({
    expect,
  }) => {
    const { p, tmp, log, agent } = await spreadProject();
    // The report follows the order the files were given in, whatever order Vitest runs them in.
    const files = (await writeSuites(p, 8, 8)).reverse();
    const result = await runCli(['run', '--sandbox', 'none', '--concurrency', '4', ...files, '--cmd', agent(1000)], {
      cwd: p.dir,
      env: { TMPDIR: tmp },
      timeoutMs: 110_000,
    });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(64);
    expect(runs.every((run) => run.end !== undefined)).toBe(true);
    expect(maxInFlight(runs)).toBe(4);
    expect(new Set(runs.map((run) => run.cwd)).size).toBe(64);

    const stdout = String(result.stdout);
    // Progress lines come as cases finish, each naming its suite and case; the table in suite order.
    const progress = stdout.split('\n').filter((line) => line.startsWith('gz-bench PASS'));
    const named = progress.map((line) => line.split(/\s{2,}/)[1]);
    expect([...named].sort()).toEqual(suiteOrder(8, 8).sort());
    const table = stdout
      .split('\n')
      .filter((line) => /^s\d > c\d\s+PASS/.test(line))
      .map((line) => line.split(/\s{2,}/)[0]);
    expect(table).toEqual(suiteOrder(8, 8, { filesReversed: true }));
    expect(stdout).toContain('64 cases: 64 passed, 0 failed');
    await expectNothingLeft(expect, tmp, runs);
  });

  it('vitest run with GZ_BENCH_CONCURRENCY=8 over a config of 2: exactly 8 at once across files, report in suite order', async ({
    expect,
  }) => {
    const { p, tmp, log } = await spreadProject();
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    // The agent sleeps as many ms as the prompt says: the cases of later files take longer.
    await p.write('vitest.config.ts', pluginConfig({ cmd: agentCmd(log), report: REPORT, concurrency: 2 }));
    await writeSuites(p, 8, 8, (k) => ({ prompt: String(900 + 40 * k) }));
    const vitest = () =>
      runVitest(['run'], { cwd: p.dir, env: { TMPDIR: tmp, GZ_BENCH_CONCURRENCY: '8' }, timeoutMs: 110_000 });
    const result = await vitest();
    expect(result.exitCode, output(result)).toBe(0);
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(64);
    expect(maxInFlight(runs)).toBe(8);
    expect(new Set(runs.map((run) => run.cwd)).size).toBe(64);
    const report = await readReport(p.dir, REPORT);
    expect(rowNames(report)).toEqual(suiteOrder(8, 8));
    expect(report.summary).toEqual({ total: 64, passed: 64, failed: 0 });
    await expectNothingLeft(expect, tmp, runs);
    // Again: Vitest now starts the files that took longest first (from its cache); the rows keep their order.
    const again = await vitest();
    expect(again.exitCode, output(again)).toBe(0);
    expect(rowNames(await readReport(p.dir, REPORT))).toEqual(suiteOrder(8, 8));
  });

  it('vitest run with concurrency: 1 runs the cases strictly one at a time, across files too', async ({ expect }) => {
    const { p, tmp, log, agent } = await spreadProject();
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    await p.write('vitest.config.ts', pluginConfig({ cmd: agent(300), report: REPORT, concurrency: 1 }));
    await writeSuites(p, 3, 3);
    const result = await runVitest(['run'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = (await readAgentRuns(log)).sort((a, b) => a.start - b.start);
    expect(runs).toHaveLength(9);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]?.start).toBeGreaterThanOrEqual(runs[i - 1]?.end ?? Number.POSITIVE_INFINITY);
    }
    expect(rowNames(await readReport(p.dir, REPORT))).toEqual(suiteOrder(3, 3));
    await expectNothingLeft(expect, tmp, runs);
  });

  it('by default runs 4 cases at once, across files', async ({ expect }) => {
    const { p, tmp, log, agent } = await spreadProject();
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    await p.write('vitest.config.ts', pluginConfig({ cmd: agent(1000), report: REPORT }));
    await writeSuites(p, 3, 2);
    const result = await runVitest(['run'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(6);
    expect(maxInFlight(runs)).toBe(4);
    await expectNothingLeft(expect, tmp, runs);
  });

  it('gz-bench run --concurrency 64 over 72 cases in 8 files: every result present, in order, in its own workspace', async ({
    expect,
  }) => {
    const { p, tmp, log, agent } = await spreadProject();
    const files = await writeSuites(p, 8, 9);
    const result = await runCli(
      ['run', '--sandbox', 'none', '--concurrency', '64', '--json', ...files, '--cmd', agent(1000)],
      { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 110_000 },
    );
    expect(result.exitCode, output(result)).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.summary).toEqual({ total: 72, passed: 72, failed: 0 });
    expect(rowNames(report)).toEqual(suiteOrder(8, 9));
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(72);
    expect(maxInFlight(runs)).toBeLessThanOrEqual(64);
    expect(new Set(runs.map((run) => run.cwd)).size).toBe(72);
    // Each case's output is its own agent's: the tail holds nothing of another case.
    for (const row of report.results) expect(row.agent?.outputTail).toBe('');
    await expectNothingLeft(expect, tmp, runs);
  });

  it('Ctrl-C at concurrency 16 with 64 cases: exit 130, running cases end, queued ones are not run, nothing left', async ({
    expect,
  }) => {
    const { p, tmp, log, agent } = await spreadProject();
    const files = await writeSuites(p, 8, 8, () => ({ timeoutSec: 300 }));
    const cli = runCli(
      ['run', '--sandbox', 'none', '--concurrency', '16', '--json', ...files, '--cmd', agent(120_000)],
      {
        cwd: p.dir,
        env: { TMPDIR: tmp },
        timeoutMs: 100_000,
      },
    ) as ResultPromise;
    const deadline = Date.now() + 60_000;
    while ((await readAgentRuns(log)).length < 16 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A moment more, in which no 17th case may start.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = await readAgentRuns(log);
    expect(started).toHaveLength(16);
    // The run's slots listen on an abstract socket of the CLI's (no file, in TMPDIR or elsewhere).
    const socket = `@gz-bench-slots-${cli.pid}-`;
    expect((await abstractSockets()).filter((name) => name.startsWith(socket))).toHaveLength(1);
    expect((await readdir(tmp)).filter((name) => name.startsWith('gz-bench-slots-'))).toEqual([]);
    cli.kill('SIGINT');
    const result = await cli;
    expect(result.exitCode, output(result)).toBe(130);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(rowNames(report)).toEqual(suiteOrder(8, 8));
    expect(report.summary).toEqual({ total: 64, passed: 0, failed: 64, notRun: 48 });
    const interrupted = report.results.filter((row) => !row.notRun);
    expect(interrupted).toHaveLength(16);
    for (const row of interrupted) expect(row.error).toBe('agent command was interrupted');
    for (const row of report.results.filter((candidate) => candidate.notRun)) {
      expect(row.error).toBe('the case did not finish: the run was cancelled first');
    }
    await expectNothingLeft(expect, tmp, await readAgentRuns(log));
    expect((await abstractSockets()).filter((name) => name.startsWith(socket))).toEqual([]);
  });

  it('a case that waits for a slot longer than its whole budget still runs and passes', async ({ expect }) => {
    const { p, tmp, log } = await spreadProject();
    // Budget of `waiter`: its one command's timeout (1 s), kill grace and margin (3 s), and 60 s for
    // preparing the workspace: 64 s, which Vitest's own timeout would count from the start of its
    // wait. It waits for the run's one slot while `holder`, whose agent sleeps 66 s, has it.
    await p.write('bench/wait.bench.json', {
      name: 'wait',
      cases: [
        { id: 'holder', prompt: '66000', checks: [], timeoutSec: 100 },
        { id: 'waiter', prompt: '100', checks: [], timeoutSec: 1 },
      ],
    });
    const result = await runCli(
      ['run', '--sandbox', 'none', '--concurrency', '1', '--json', 'bench/wait.bench.json', '--cmd', agentCmd(log)],
      { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 140_000 },
    );
    expect(result.exitCode, output(result)).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.results.map((row) => [row.id, row.passed])).toEqual([
      ['holder', true],
      ['waiter', true],
    ]);
    const [holder, waiter] = (await readAgentRuns(log)).sort((a, b) => a.start - b.start);
    expect(holder?.end).toBeDefined();
    expect((holder?.end ?? 0) - (holder?.start ?? 0)).toBeGreaterThanOrEqual(66_000);
    expect(waiter?.start).toBeGreaterThanOrEqual(holder?.end ?? Number.POSITIVE_INFINITY);
    await expectNothingLeft(
      expect,
      tmp,
      [holder, waiter].filter((run) => run !== undefined),
    );
  }, 150_000);
});
