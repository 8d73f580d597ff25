import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result, ResultPromise } from 'execa';
import { describe, it } from 'vitest';
import { abstractSockets, expectNothingLeft, intervalAgent, maxInFlight, readAgentRuns } from './support/agent-log.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginConfig } from './support/plugin-project.js';
import type { TempProject } from './support/project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';

// One concurrency limit for the whole run: at most n cases at once across every suite file, through
// the CLI and through `vitest run`. Every case's agent is fixtures/agents/log-interval.mjs, which
// logs when it started and ended and in which workspace, in a log outside the workspaces; the cases
// run unsandboxed so that it may write there. Each run has its own TMPDIR, which must be empty once
// the run is over: no case area, no cache dir, no socket of the run's slots. (test/slot-wait.test.ts:
// waiting for a slot does not count against a case.)

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
  return { p, tmp, log, agent: (ms: number) => intervalAgent(log, ms) };
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

/** Every `s<k> > c<m>` in suite order: files by path (one digit: by number), then cases. */
function suiteOrder(files: number, cases: number): string[] {
  return Array.from({ length: files }, (_, k) => k + 1).flatMap((k) =>
    Array.from({ length: cases }, (_, m) => `s${k} > c${m + 1}`),
  );
}

function rowNames(report: Report): string[] {
  return report.results.map((row) => `${row.suite} > ${row.id}`);
}

// One test at a time: each already keeps up to 64 agents and 8 workers busy on the machine.
describe('one concurrency limit for the whole run', () => {
  it('gz-bench run --concurrency 4: 8 files × 8 cases, exactly 4 at once, results and report in suite order', async ({
    expect,
  }) => {
    const { p, tmp, log, agent } = await spreadProject();
    // Rows come by file path and suite order, whatever order the files were given or the cases finished in.
    const files = (await writeSuites(p, 8, 8)).reverse();
    // The flag wins over the variable.
    const result = await runCli(['run', '--sandbox', 'none', '--concurrency', '4', ...files, '--cmd', agent(1000)], {
      cwd: p.dir,
      env: { TMPDIR: tmp, GZ_BENCH_CONCURRENCY: '2' },
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
    expect(table).toEqual(suiteOrder(8, 8));
    expect(stdout).toContain('64 cases: 64 passed, 0 failed');
    await expectNothingLeft(expect, tmp, runs);
  });

  it('vitest run with GZ_BENCH_CONCURRENCY=8 over a config of 2: exactly 8 at once across files, report in suite order', async ({
    expect,
  }) => {
    const { p, tmp, log } = await spreadProject();
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    // The agent sleeps as many ms as the prompt says: the cases of later files take longer.
    await p.write('vitest.config.ts', pluginConfig({ cmd: intervalAgent(log), report: REPORT, concurrency: 2 }));
    await writeSuites(p, 8, 8, (k) => ({ prompt: String(900 + 40 * k) }));
    const result = await runVitest(['run'], {
      cwd: p.dir,
      env: { TMPDIR: tmp, GZ_BENCH_CONCURRENCY: '8' },
      timeoutMs: 110_000,
    });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(64);
    expect(maxInFlight(runs)).toBe(8);
    expect(new Set(runs.map((run) => run.cwd)).size).toBe(64);
    const report = await readReport(p.dir, REPORT);
    expect(rowNames(report)).toEqual(suiteOrder(8, 8));
    expect(report.summary).toEqual({ total: 64, passed: 64, failed: 0 });
    await expectNothingLeft(expect, tmp, runs);
  });

  it('vitest run with concurrency: 1 runs the cases strictly one at a time, across files too, each file in suite order', async ({
    expect,
  }) => {
    const { p, tmp, log, agent } = await spreadProject();
    // Each case's prompt names it, and its agent notes the prompt as it starts.
    const order = join(p.dir, 'order.log');
    const cmd = `printf '%s\\n' "$GZ_BENCH_PROMPT" >> '${order}' && ${agent(300)}`;
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    await p.write('vitest.config.ts', pluginConfig({ cmd, report: REPORT, concurrency: 1 }));
    for (const k of [1, 2, 3]) {
      const cases = [1, 2, 3].map((m) => ({ id: `c${m}`, prompt: `s${k} > c${m}`, checks: [] }));
      await p.write(`bench/s${k}.bench.json`, { name: `s${k}`, cases });
    }
    const result = await runVitest(['run'], { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 110_000 });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = (await readAgentRuns(log)).sort((a, b) => a.start - b.start);
    expect(runs).toHaveLength(9);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]?.start).toBeGreaterThanOrEqual(runs[i - 1]?.end ?? Number.POSITIVE_INFINITY);
    }
    // Files may take turns, but each file's cases start in the order the suite lists them.
    const started = (await readFile(order, 'utf8')).trim().split('\n');
    expect([...started].sort()).toEqual(suiteOrder(3, 3));
    for (const k of [1, 2, 3]) {
      expect(started.filter((line) => line.startsWith(`s${k} `))).toEqual([1, 2, 3].map((m) => `s${k} > c${m}`));
    }
    expect(rowNames(await readReport(p.dir, REPORT))).toEqual(suiteOrder(3, 3));
    await expectNothingLeft(expect, tmp, runs);
  });

  it('by default runs 4 cases at once, across files', async ({ expect }) => {
    const { p, tmp, log, agent } = await spreadProject();
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    await p.write('vitest.config.ts', pluginConfig({ cmd: agent(1000), report: REPORT }));
    await writeSuites(p, 3, 2);
    const result = await runVitest(['run'], { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 110_000 });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(6);
    expect(maxInFlight(runs)).toBe(4);
    await expectNothingLeft(expect, tmp, runs);
  });

  it('gz-bench run with GZ_BENCH_CONCURRENCY=64 over 72 cases in 8 files: every result present, in order, in its own workspace', async ({
    expect,
  }) => {
    const { p, tmp, log, agent } = await spreadProject();
    const files = await writeSuites(p, 8, 9);
    const result = await runCli(['run', '--sandbox', 'none', '--json', ...files, '--cmd', agent(1000)], {
      cwd: p.dir,
      env: { TMPDIR: tmp, GZ_BENCH_CONCURRENCY: '64' },
      timeoutMs: 110_000,
    });
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

  it('gz-bench run refuses a GZ_BENCH_CONCURRENCY that is not a positive integer, before Vitest starts', async ({
    expect,
  }) => {
    const { p, agent } = await spreadProject();
    const files = await writeSuites(p, 1, 1);
    for (const value of ['0', 'four', '2.5']) {
      const result = await runCli(['run', ...files, '--cmd', agent(0)], {
        cwd: p.dir,
        env: { GZ_BENCH_CONCURRENCY: value },
      });
      expect(result.exitCode).toBe(2);
      expect(String(result.stderr)).toBe(
        `gz-bench: GZ_BENCH_CONCURRENCY must be a positive integer, got "${value}"\nRun "gz-bench --help" for usage.`,
      );
      expect(String(result.stdout)).toBe('');
    }
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
    // Interrupted or never started, no case finished: every one is not run, ready for --only-failed.
    expect(report.summary).toEqual({ total: 64, passed: 0, failed: 64, notRun: 64 });
    const cutShort = 'the case did not finish: the run was interrupted (agent command was interrupted)';
    const interrupted = report.results.filter((row) => row.error === cutShort);
    expect(interrupted).toHaveLength(16);
    for (const row of report.results.filter((candidate) => candidate.error !== cutShort)) {
      expect(row.error).toBe('the case did not finish: the run was cancelled first');
    }
    await expectNothingLeft(expect, tmp, await readAgentRuns(log));
    expect((await abstractSockets()).filter((name) => name.startsWith(socket))).toEqual([]);
  });
});
