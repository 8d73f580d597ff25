import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report, ReportResult } from '@gz-bench/core';
import { execa, type Result } from 'execa';
import { describe, it } from 'vitest';
import { expectNothingLeft } from './support/agent-log.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath, CLI_BIN } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { cleanEnv, runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';
import { type CaseSpec, suite } from './support/suite.js';

// Re-running what did not pass (--only-failed), retrying agent and harness errors (--retry-errors),
// and resuming a run that Ctrl-C stopped. The agent, fixtures/agents/trial-log.mjs, logs every run
// of every trial, so the tests count by the agent's own log what ran, and how often.

const { project } = cleanupAfterAll();

const DONE = [{ kind: 'fileExists', path: 'done.txt' }];

/** A case whose prompt tells trial-log.mjs what to do (see its header), then names the case. */
function logCase(id: string, behaviour: string): CaseSpec {
  return { id, prompt: `${behaviour} ${id}`, checks: DONE };
}

interface Bench {
  dir: string;
  tmp: string;
  log: string;
  cmd: string;
}

/** A project with a suite of these cases, a private TMPDIR, and the agent's log. */
async function bench(cases: CaseSpec[], extra: Record<string, string | object> = {}): Promise<Bench> {
  const p = await project({ 'suite.json': suite('rerun', cases), ...extra });
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  const log = join(p.dir, 'agent.log');
  return { dir: p.dir, tmp, log, cmd: `${nodeCommand(agentPath('trial-log.mjs'), log)} {{prompt}}` };
}

/** How many times the agent ran each `case trial`, from its log. */
async function runsByTrial(log: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const line of (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean)) {
    const [, id, trial] = line.split(' ');
    const key = `${id} ${trial}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout).slice(0, 4000)}\n--- stderr\n${String(result.stderr)}`;
}

/** `gz-bench run suite.json` with the bench's agent, unsandboxed (the agent logs outside its workspace). */
function run(b: Bench, flags: string[]): Promise<Result> {
  return runCli(['run', 'suite.json', '--sandbox', 'none', '--cmd', b.cmd, ...flags], {
    cwd: b.dir,
    env: { TMPDIR: b.tmp },
  });
}

/** Runs with --json and saves the report to `name` in the project, as a user's `> name` would. */
async function runToFile(b: Bench, flags: string[], name: string): Promise<{ result: Result; report: Report }> {
  const result = await run(b, [...flags, '--json']);
  await writeFile(join(b.dir, name), String(result.stdout));
  return { result, report: JSON.parse(String(result.stdout)) as Report };
}

const cell = (row: ReportResult) => `${row.id} ${row.trial ?? 1}`;

/** A report without what differs between runs of the same results: durations, logs, output, versions. */
function shape(report: Report): object {
  return {
    summary: report.summary,
    errors: report.errors,
    results: report.results.map((row) => ({
      id: row.id,
      trial: row.trial,
      suite: row.suite,
      file: row.file,
      passed: row.passed,
      outcome: row.outcome,
      checkResults: row.checkResults,
    })),
    scoreboard: report.scoreboard && {
      ...report.scoreboard,
      agents: report.scoreboard.agents.map(({ medianDurationMs: _m, ...agent }) => agent),
      cells: report.scoreboard.cells.map(({ medianDurationMs: _m, ...each }) => each),
    },
  };
}

describe.concurrent('--only-failed', () => {
  it('runs again only the trials that did not pass and writes one complete report of both runs', async ({ expect }) => {
    const b = await bench([
      logCase('steady', 'pass'),
      logCase('flaky', 'fail-trial-2'),
      logCase('limited', 'error-once'),
      logCase('wrong', 'fail'),
    ]);
    const first = await runToFile(b, ['--trials', '3'], 'first.json');
    expect(first.result.exitCode, output(first.result)).toBe(1);
    expect(first.report.results.map((row) => `${cell(row)} ${row.outcome}`)).toEqual([
      'steady 1 passed',
      'steady 2 passed',
      'steady 3 passed',
      'flaky 1 passed',
      'flaky 2 failed',
      'flaky 3 passed',
      'limited 1 agentError',
      'limited 2 agentError',
      'limited 3 agentError',
      'wrong 1 failed',
      'wrong 2 failed',
      'wrong 3 failed',
    ]);

    const second = await runToFile(b, ['--trials', '3', '--only-failed', 'first.json'], 'second.json');
    expect(second.result.exitCode, output(second.result)).toBe(1);
    // By the agent's own log: every passing trial ran once, every other one twice.
    expect(await runsByTrial(b.log)).toEqual({
      'steady 1': 1,
      'steady 2': 1,
      'steady 3': 1,
      'flaky 1': 1,
      'flaky 2': 2,
      'flaky 3': 1,
      'limited 1': 2,
      'limited 2': 2,
      'limited 3': 2,
      'wrong 1': 2,
      'wrong 2': 2,
      'wrong 3': 2,
    });
    const merged = second.report;
    expect(merged.results.map((row) => `${cell(row)} ${row.outcome}`)).toEqual([
      'steady 1 passed',
      'steady 2 passed',
      'steady 3 passed',
      'flaky 1 passed',
      'flaky 2 failed',
      'flaky 3 passed',
      'limited 1 passed',
      'limited 2 passed',
      'limited 3 passed',
      'wrong 1 failed',
      'wrong 2 failed',
      'wrong 3 failed',
    ]);
    // The earlier passing rows are carried over whole, their durations and output included.
    for (const kept of first.report.results.filter((row) => row.passed)) {
      expect(merged.results.find((row) => cell(row) === cell(kept))).toEqual(kept);
    }
    expect(merged.summary).toEqual({ total: 12, passed: 8, failed: 4 });
    // The scoreboard is recomputed over the merged rows.
    expect(merged.scoreboard?.cells.map((each) => `${each.id} ${each.passes}/${each.trials} ${each.passed}`)).toEqual([
      'steady 3/3 true',
      'flaky 2/3 true',
      'limited 3/3 true',
      'wrong 0/3 false',
    ]);
    // The cell's Vitest verdict counts its kept passes: flaky passes by majority with one trial run.
    expect(String(second.result.stderr)).toMatch(/wrong.*\n?.*0 of 3 trials passed/);
    expect(String(second.result.stderr)).not.toMatch(/flaky[^\n]*trials passed/);
    await expectNothingLeft(expect, b.tmp, []);
  });

  it('completes a report through the plugin, with GZ_BENCH_ONLY_FAILED, skipping nothing it needs', async ({
    expect,
  }) => {
    const b = await bench([logCase('steady', 'pass'), logCase('limited', 'error-once')]);
    await writeFile(join(b.dir, 'vitest.config.ts'), '');
    const files = pluginProjectFiles({ cmd: b.cmd, report: 'out/report.json', include: ['suite.json'] });
    for (const [path, content] of Object.entries(files)) {
      await writeFile(join(b.dir, path), typeof content === 'string' ? content : JSON.stringify(content));
    }
    const first = await runVitest(['run'], { cwd: b.dir, env: { TMPDIR: b.tmp } });
    expect(first.exitCode, output(first)).toBe(1);
    await writeFile(join(b.dir, 'first.json'), await readFile(join(b.dir, 'out/report.json')));
    const second = await runVitest(['run'], { cwd: b.dir, env: { TMPDIR: b.tmp, GZ_BENCH_ONLY_FAILED: 'first.json' } });
    expect(second.exitCode, output(second)).toBe(0);
    expect(await runsByTrial(b.log)).toEqual({ 'steady 1': 1, 'limited 1': 2 });
    const report = JSON.parse(await readFile(join(b.dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.results.map((row) => `${row.id} ${row.outcome}`)).toEqual(['steady passed', 'limited passed']);
    expect(report.summary).toEqual({ total: 2, passed: 2, failed: 0 });
    await expectNothingLeft(expect, b.tmp, []);
  });

  it('refuses a report it cannot use with one line and exit 2, before anything runs', async ({ expect }) => {
    const b = await bench([logCase('steady', 'pass')]);
    await writeFile(join(b.dir, 'cut.json'), '{"summary": {"total": 1}, "resu');
    await writeFile(join(b.dir, 'table.json'), JSON.stringify({ summary: { total: 1 }, results: [{ id: 'x' }] }));
    const other = { id: 'gone', suite: 'other', file: 'other.json', passed: true, outcome: 'passed' };
    await writeFile(
      join(b.dir, 'other.json'),
      JSON.stringify({ summary: { total: 1 }, results: [{ ...other, durationMs: 1, checkResults: [] }] }),
    );
    const cases: Array<[string, string]> = [
      [
        'missing.json',
        'gz-bench: cannot read the earlier report missing.json (ENOENT); name a report a gz-bench run wrote',
      ],
      [
        'cut.json',
        'gz-bench: cut.json is not JSON; --only-failed takes a report a gz-bench run wrote (its report file, or --json output)',
      ],
      [
        'other.json',
        "gz-bench: other.json holds no result of this run's suite files, cases and agents; --only-failed takes the report of an earlier run of the same suites",
      ],
    ];
    for (const [file, message] of cases) {
      const result = await run(b, ['--only-failed', file]);
      expect(result.exitCode, output(result)).toBe(2);
      expect(String(result.stderr).split('\n')[0]).toBe(message);
    }
    const table = await run(b, ['--only-failed', 'table.json']);
    expect(table.exitCode, output(table)).toBe(2);
    expect(String(table.stderr)).toMatch(/^gz-bench: table\.json is not a gz-bench report \(.+ at results\.0\.suite\)/);
    expect(String(table.stderr)).not.toMatch(/^\s+at /m);
    expect(await runsByTrial(b.log)).toEqual({});
  });

  it('warns of earlier rows that match nothing any more, and runs the rest', async ({ expect }) => {
    const b = await bench([logCase('kept', 'pass'), logCase('dropped', 'fail')]);
    const first = await runToFile(b, [], 'first.json');
    expect(first.result.exitCode, output(first.result)).toBe(1);
    await writeFile(join(b.dir, 'suite.json'), JSON.stringify(suite('rerun', [logCase('kept', 'pass')])));
    const second = await run(b, ['--only-failed', 'first.json', '--json']);
    expect(second.exitCode, output(second)).toBe(0);
    expect(String(second.stderr)).toContain(
      'gz-bench: suite.json: case "dropped" of the earlier report no longer in the suite or run; left out',
    );
    expect(await runsByTrial(b.log)).toEqual({ 'kept 1': 1, 'dropped 1': 1 });
    expect((JSON.parse(String(second.stdout)) as Report).results.map((row) => row.id)).toEqual(['kept']);
  });
});

describe.concurrent('--retry-errors', () => {
  it('runs a trial again after an agent error, at most n times, never after an honest failure', async ({ expect }) => {
    const b = await bench([
      logCase('limited', 'error-once'),
      logCase('wrong', 'fail'),
      logCase('broken', 'always-error'),
    ]);
    const result = await run(b, ['--retry-errors', '2', '--json']);
    expect(result.exitCode, output(result)).toBe(1);
    expect(await runsByTrial(b.log)).toEqual({ 'limited 1': 2, 'wrong 1': 1, 'broken 1': 3 });
    const report = JSON.parse(String(result.stdout)) as Report;
    const [limited, wrong, broken] = report.results;
    expect(limited).toMatchObject({
      outcome: 'passed',
      attempts: 2,
      retriedErrors: [
        { outcome: 'agentError', error: 'agent command exited with 3: trial-log: 429 rate limited, try again' },
      ],
    });
    expect(wrong?.outcome).toBe('failed');
    expect(wrong).not.toHaveProperty('attempts');
    expect(broken).toMatchObject({ outcome: 'agentError', attempts: 3 });
    expect(broken?.retriedErrors).toHaveLength(2);
    await expectNothingLeft(expect, b.tmp, []);
  });

  it('retries once when given no count, and takes the suite file after it as a suite file', async ({ expect }) => {
    const b = await bench([logCase('broken', 'always-error')]);
    const result = await runCli(
      ['run', '--sandbox', 'none', '--cmd', b.cmd, '--retry-errors', 'suite.json', '--json'],
      {
        cwd: b.dir,
        env: { TMPDIR: b.tmp },
      },
    );
    expect(result.exitCode, output(result)).toBe(1);
    expect((JSON.parse(String(result.stdout)) as Report).results[0]).toMatchObject({ attempts: 2 });
    expect(await runsByTrial(b.log)).toEqual({ 'broken 1': 2 });
  });
});

describe('Ctrl-C, then a resume', () => {
  // Two slots, granted in order: `mixed` trial 2 and `hold` trial 1 take both and sleep, so `hold`
  // trial 2 and the cases after it wait for a slot.
  const cases = [
    logCase('quick', 'pass'),
    logCase('mixed', 'slow-trial-2'),
    logCase('hold', 'slow-trial-1'),
    logCase('after', 'pass'),
    logCase('last', 'pass'),
  ];
  const flags = ['--trials', '2', '--concurrency', '2'];

  it('keeps every finished trial, marks the others not run, and the resume runs only those', async ({ expect }) => {
    const b = await bench(cases);
    // In a process group of its own, which SIGINT reaches whole, as a terminal's Ctrl-C does.
    const cli = execa(CLI_BIN, ['run', 'suite.json', '--sandbox', 'none', '--cmd', b.cmd, ...flags, '--json'], {
      cwd: b.dir,
      env: cleanEnv({ TMPDIR: b.tmp }),
      extendEnv: false,
      reject: false,
      detached: true,
      stdin: 'ignore',
    });
    const deadline = Date.now() + 30_000;
    const sleeping = async () => {
      const runs = await runsByTrial(b.log);
      return runs['mixed 2'] === 1 && runs['hold 1'] === 1;
    };
    while (!(await sleeping()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sleeping()).toBe(true);
    process.kill(-(cli.pid as number), 'SIGINT');
    const interrupted = await cli;
    expect(interrupted.exitCode, output(interrupted)).toBe(130);
    await writeFile(join(b.dir, 'interrupted.json'), String(interrupted.stdout));
    const partial = JSON.parse(String(interrupted.stdout)) as Report;
    const before = await runsByTrial(b.log);
    // What finished has its real result; the two trials cut short and those never started are not run.
    expect(partial.results.map((row) => `${cell(row)} ${row.outcome}`)).toEqual([
      'quick 1 passed',
      'quick 2 passed',
      'mixed 1 passed',
      'mixed 2 notRun',
      'hold 1 notRun',
      'hold 2 notRun',
      'after 1 notRun',
      'after 2 notRun',
      'last 1 notRun',
      'last 2 notRun',
    ]);
    expect(partial.results.find((row) => cell(row) === 'mixed 2')?.error).toBe(
      'the case did not finish: the run was interrupted (agent command was interrupted)',
    );
    expect(before).toEqual({ 'quick 1': 1, 'quick 2': 1, 'mixed 1': 1, 'mixed 2': 1, 'hold 1': 1 });
    await expectNothingLeft(expect, b.tmp, []);

    const resumed = await runToFile(b, [...flags, '--only-failed', 'interrupted.json'], 'resumed.json');
    expect(resumed.result.exitCode, output(resumed.result)).toBe(0);
    // By the agent's log: nothing that finished ran again; each unfinished trial ran once more.
    expect(await runsByTrial(b.log)).toEqual({
      ...before,
      'mixed 2': 2,
      'hold 1': 2,
      'hold 2': 1,
      'after 1': 1,
      'after 2': 1,
      'last 1': 1,
      'last 2': 1,
    });
    await expectNothingLeft(expect, b.tmp, []);

    // The same as a run that was never interrupted (the slow trials' first time already had).
    const whole = await bench(cases);
    for (const marker of ['slow_trial_2_mixed.2', 'slow_trial_1_hold.1']) await writeFile(`${whole.log}.${marker}`, '');
    const uninterrupted = await runToFile(whole, flags, 'whole.json');
    expect(uninterrupted.result.exitCode, output(uninterrupted.result)).toBe(0);
    expect(shape(resumed.report)).toEqual(shape(uninterrupted.report));
    expect(resumed.report.summary).toEqual({ total: 10, passed: 10, failed: 0 });
    expect(await readdir(b.tmp)).toEqual([]);
  });
});
