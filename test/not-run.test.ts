import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import type { TempProject } from './support/project.js';
import { readReport, resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';
import { suite } from './support/suite.js';

// Cases that were meant to run but have no result of their own: the Vitest worker running them was
// killed (SIGKILL, as the OOM killer does), or the run was cancelled first. Each must be a row that
// did not run, counted as failed, listed under errors, and the exit code must say the run failed.
// Cases deselected on purpose (-t, file:line) are not missing: test/plugin.test.ts checks that their
// reports hold the selected cases only.

// The fake agent SIGKILLs its worker, which an agent in a pid namespace of its own cannot signal.
const NO_PID_NAMESPACE = { GZ_BENCH_CONTAINMENT: 'sweep' };

const { project } = cleanupAfterAll();

/** The agent of every case: it kills the worker that runs it, so neither it nor the cases after it finish. */
const KILL_WORKER = nodeCommand(agentPath('kill-worker.mjs'));
const REPORT = 'out/report.json';
const CRASHED = 'the case did not finish: Vitest reported "Worker exited unexpectedly"';

const twoCases = suite('crashes', [
  { id: 'killed', prompt: 'p', checks: [{ kind: 'fileExists', path: 'done.txt' }] },
  { id: 'never-started', prompt: 'p' },
]);

/** A project with its own TMPDIR, where the killed worker leaves its case area; removed after the file. */
async function projectWithTmp(files: Record<string, string | object>): Promise<{ p: TempProject; tmp: string }> {
  const p = await project(files);
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  return { p, tmp };
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** The README's gate, `jq -e '.summary.failed == 0'`, as a predicate. */
function gatePasses(report: Report): boolean {
  return report.summary.failed === 0;
}

function expectNotRun(expect: import('vitest').ExpectStatic, report: Report, file: string): void {
  expect(report.summary).toEqual({ total: 2, passed: 0, failed: 2, notRun: 2 });
  expect(gatePasses(report)).toBe(false);
  expect(resultOf(report, 'killed')).toEqual({
    id: 'killed',
    passed: false,
    durationMs: 0,
    checkResults: [{ kind: 'fileExists', path: 'done.txt', passed: false, skipped: true }],
    suite: 'crashes',
    file,
    outcome: 'notRun',
    notRun: true,
    error: CRASHED,
    failedStep: 'harness',
  });
  expect(resultOf(report, 'never-started')).toMatchObject({ notRun: true, error: CRASHED, failedStep: 'harness' });
  expect(report.errors).toEqual([
    { file, message: `${file}: 2 of 2 cases did not finish: Vitest reported "Worker exited unexpectedly"` },
  ]);
}

describe.concurrent('cases that did not run', () => {
  it('gz-bench run --json: a killed worker gives a result per case marked not run, and exit 1', async ({ expect }) => {
    const { p, tmp } = await projectWithTmp({ 'suite.json': twoCases });
    const result = await runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', KILL_WORKER, '--json'], {
      cwd: p.dir,
      env: { TMPDIR: tmp, ...NO_PID_NAMESPACE },
    });
    expect(result.exitCode, output(result)).toBe(1);
    expectNotRun(expect, JSON.parse(String(result.stdout)) as Report, 'suite.json');
    expect(String(result.stderr)).toContain('gz-bench: 2 of 2 cases did not finish; the report marks them NOT RUN');
  });

  it('gz-bench run: the table shows NOT RUN rows and says so under the summary', async ({ expect }) => {
    const { p, tmp } = await projectWithTmp({ 'suite.json': twoCases });
    const result = await runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', KILL_WORKER], {
      cwd: p.dir,
      env: { TMPDIR: tmp, ...NO_PID_NAMESPACE },
    });
    expect(result.exitCode, output(result)).toBe(1);
    const stdout = String(result.stdout);
    expect(stdout).toMatch(new RegExp(`^killed {9}NOT RUN  0/1 {5}- {5}${literal(CRASHED)}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^never-started {2}NOT RUN  0/0 {5}- {5}${literal(CRASHED)}$`, 'm'));
    expect(stdout).toContain('2 cases: 0 passed, 2 failed (2 not run)');
    expect(stdout).toContain(
      'error: suite.json: 2 of 2 cases did not finish: Vitest reported "Worker exited unexpectedly"',
    );
  });

  it('vitest run with the plugin: the report and the table hold the cases of the killed worker', async ({ expect }) => {
    const { p, tmp } = await projectWithTmp({
      ...pluginProjectFiles({ cmd: KILL_WORKER, report: REPORT }),
      'bench/crashes.bench.json': twoCases,
    });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp, ...NO_PID_NAMESPACE } });
    expect(result.exitCode, output(result)).toBe(1);
    expectNotRun(expect, await readReport(p.dir, REPORT), 'bench/crashes.bench.json');
    expect(String(result.stdout)).toMatch(/^killed +NOT RUN +0\/1 +- +the case did not finish/m);
    expect(String(result.stdout)).toContain('2 cases: 0 passed, 2 failed (2 not run)');
  });

  it('vitest run: a worker that dies before collecting its file still reports the selected cases', async ({
    expect,
  }) => {
    // A setup file that kills its worker stands for a worker killed while it loads the suite.
    const { p, tmp } = await projectWithTmp({
      'package.json': { name: 'bench-user', private: true, type: 'module' },
      'die.js': "process.kill(process.pid, 'SIGKILL');\n",
      'vitest.config.ts': [
        "import { gzBench } from '@gz-bench/vitest-plugin';",
        "import { defineConfig } from 'vitest/config';",
        `export default defineConfig({ plugins: [gzBench(${JSON.stringify({ cmd: 'true', report: REPORT, sandbox: 'none' })})], test: { setupFiles: ['./die.js'] } });`,
        '',
      ].join('\n'),
      'bench/crashes.bench.json': twoCases,
    });
    // -t narrows the run to one case: the other was deselected on purpose and is not missing.
    const result = await runVitest(['run', 'bench/', '-t', 'never-started'], {
      cwd: p.dir,
      env: { TMPDIR: tmp, ...NO_PID_NAMESPACE },
    });
    expect(result.exitCode, output(result)).toBe(1);
    const report = await readReport(p.dir, REPORT);
    expect(report.summary).toEqual({ total: 1, passed: 0, failed: 1, notRun: 1 });
    expect(report.results.map((row) => [row.id, row.notRun, row.error])).toEqual([['never-started', true, CRASHED]]);
  });

  it('vitest run --bail: the cases the cancelled run never reached are not run', async ({ expect }) => {
    const { p, tmp } = await projectWithTmp({
      // One case at a time: --bail stops the cases the run has not reached, not those running beside.
      ...pluginProjectFiles({ cmd: 'true', report: REPORT, concurrency: 1 }),
      'bench/bail.bench.json': suite('bail', [
        { id: 'fails', prompt: 'p', checks: [{ kind: 'fileExists', path: 'missing.txt' }] },
        { id: 'after', prompt: 'p' },
      ]),
    });
    const result = await runVitest(['run', 'bench/', '--bail', '1'], {
      cwd: p.dir,
      env: { TMPDIR: tmp, ...NO_PID_NAMESPACE },
    });
    expect(result.exitCode, output(result)).toBe(1);
    const report = await readReport(p.dir, REPORT);
    expect(report.summary).toEqual({ total: 2, passed: 0, failed: 2, notRun: 1 });
    expect(resultOf(report, 'fails')).toMatchObject({ error: 'file does not exist: missing.txt' });
    expect(resultOf(report, 'fails')).not.toHaveProperty('notRun');
    expect(resultOf(report, 'after')).toMatchObject({
      notRun: true,
      error: 'the case did not finish: the run was cancelled first',
    });
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
