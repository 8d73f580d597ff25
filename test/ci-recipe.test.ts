import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { expectNothingLeft } from './support/agent-log.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath, REPO_ROOT } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';
import { type CaseSpec, suite } from './support/suite.js';

// The CI recipe of the README (docs/github-actions.yml), run here as its jobs would run it: three
// shards, each a separate Vitest process writing a blob report, then the merge, which writes the one
// gz-bench report, the step summary and JUnit. The merged report must equal a single run's.

const cleanup = cleanupAfterAll();
const REPORT = '.gz-bench/report.json';
const DONE = [{ kind: 'fileExists', path: 'done.txt' }];

function logCase(id: string, behaviour: string): CaseSpec {
  return { id, prompt: `${behaviour} ${id}`, checks: DONE };
}

/** Three suite files, two agents, two trials: passes, a flaky cell, wrong answers and agent errors. */
async function ciProject(): Promise<{ dir: string; tmp: string; log: string }> {
  const p = await cleanup.project({
    'bench/a.bench.json': suite('alpha', [logCase('a-pass', 'pass'), logCase('a-flaky', 'fail-trial-2')]),
    'bench/b.bench.json': suite('beta', [logCase('b-wrong', 'fail')]),
    'bench/c.bench.json': suite('gamma', [logCase('c-crash', 'always-error'), logCase('c-pass', 'pass')]),
  });
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  const log = join(p.dir, 'agent.log');
  const cmd = `${nodeCommand(agentPath('trial-log.mjs'), log)} {{prompt}}`;
  const files = pluginProjectFiles({ agents: { mine: cmd, other: cmd }, trials: 2 });
  for (const [path, content] of Object.entries(files)) {
    await writeFile(join(p.dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return { dir: p.dir, tmp, log };
}

/**
 * The Vitest arguments of the recipe's shard and merge steps, read from the workflow file itself, so
 * that this test runs what users copy: the shard's with the matrix values of shard `i` of 3.
 */
function recipeCommands(workflow: string): { shardArgs: (shard: number) => string[]; mergeArgs: string[] } {
  const step = (pattern: RegExp) => {
    const line = workflow.split('\n').find((text) => pattern.test(text));
    if (line === undefined) throw new Error(`docs/github-actions.yml has no step matching ${pattern}`);
    return line.replace(/^\s*- run: npx vitest /, '').replace(/ \|\| true$/, '');
  };
  const shard = step(/- run: npx vitest run --shard=/);
  const merge = step(/- run: npx vitest --merge-reports/);
  return {
    shardArgs: (index) =>
      shard
        .replace(/\$\{\{ matrix\.shard \}\}/g, String(index))
        .replace(/\$\{\{ strategy\.job-total \}\}/g, '3')
        .split(' '),
    mergeArgs: merge.split(' '),
  };
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** The report without what differs between runs of the same results: durations, logs, versions. */
function comparable(report: Report): object {
  return {
    summary: report.summary,
    errors: report.errors,
    results: report.results.map(({ durationMs: _d, agent, ...row }) => ({
      ...row,
      agent: agent && { exitCode: agent.exitCode, signal: agent.signal, outputTail: agent.outputTail },
      checkResults: row.checkResults.map(({ log: _log, ...check }) => check),
    })),
    scoreboard: report.scoreboard && {
      ...report.scoreboard,
      agents: report.scoreboard.agents.map(({ medianDurationMs: _m, ...agent }) => agent),
      cells: report.scoreboard.cells.map(({ medianDurationMs: _m, ...cell }) => cell),
    },
  };
}

/** The `<testcase>` elements of a JUnit file: name, outcome property, failure message. */
function junitCases(xml: string): Array<{ name: string; outcome: string | undefined; failure: string | undefined }> {
  const fromXml = (text: string) =>
    text.replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return [...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)].map(
    ([, name = '', body = '']) => ({
      name: fromXml(name),
      outcome: body.match(/<property name="gz-bench\.outcome" value="([^"]*)">/)?.[1],
      failure: body.match(/<failure message="([^"]*)"/)?.[1]?.replace(/&[a-z]+;/g, (entity) => fromXml(entity)),
    }),
  );
}

/** Three suite files of one agent with three trials, so that a drop of a cell can be significant. */
async function baselineProject(): Promise<{ dir: string; tmp: string; writeSuites: (aPass: string) => Promise<void> }> {
  const p = await cleanup.project({});
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  const cmd = `${nodeCommand(agentPath('trial-log.mjs'), join(p.dir, 'agent.log'))} {{prompt}}`;
  const files = pluginProjectFiles({ agents: { mine: cmd }, trials: 3 });
  for (const [path, content] of Object.entries(files)) {
    await writeFile(join(p.dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  await mkdir(join(p.dir, 'bench'));
  const writeSuites = async (aPass: string) => {
    const suites = {
      'bench/a.bench.json': suite('alpha', [logCase('a-pass', aPass), logCase('a-flaky', 'fail-trial-2')]),
      'bench/b.bench.json': suite('beta', [logCase('b-wrong', 'fail')]),
      'bench/c.bench.json': suite('gamma', [logCase('c-pass', 'pass')]),
    };
    for (const [path, content] of Object.entries(suites)) await writeFile(join(p.dir, path), JSON.stringify(content));
  };
  await writeSuites('pass');
  return { dir: p.dir, tmp, writeSuites };
}

describe('the CI recipe: shards in separate processes, then the merge', () => {
  it('merges three blob shards into the report of a single run, with the step summary and JUnit', async ({
    expect,
  }) => {
    const { shardArgs, mergeArgs } = recipeCommands(await readFile(join(REPO_ROOT, 'docs/github-actions.yml'), 'utf8'));
    expect(shardArgs(2)).toEqual(['run', '--shard=2/3', '--reporter=blob', '--outputFile=.vitest-reports/blob-2.json']);

    const single = await ciProject();
    const whole = await runVitest(['run', '--reporter=default', '--reporter=junit', '--outputFile.junit=junit.xml'], {
      cwd: single.dir,
      env: { TMPDIR: single.tmp },
      timeoutMs: 120_000,
    });
    expect(whole.exitCode, output(whole)).toBe(1);
    const unsharded = JSON.parse(await readFile(join(single.dir, REPORT), 'utf8')) as Report;

    const p = await ciProject();
    for (const shard of [1, 2, 3]) {
      const result = await runVitest(shardArgs(shard), { cwd: p.dir, env: { TMPDIR: p.tmp }, timeoutMs: 120_000 });
      expect(result.exitCode === 0 || result.exitCode === 1, output(result)).toBe(true);
    }
    expect((await readdir(join(p.dir, '.vitest-reports'))).sort()).toEqual([
      'blob-1.json',
      'blob-2.json',
      'blob-3.json',
    ]);
    await expect(readFile(join(p.dir, REPORT))).rejects.toThrow(/ENOENT/);
    const summaryFile = join(p.dir, 'step-summary.md');
    await writeFile(summaryFile, '# earlier step\n');
    const merged = await runVitest(mergeArgs, {
      cwd: p.dir,
      env: { TMPDIR: p.tmp, GITHUB_STEP_SUMMARY: summaryFile },
      timeoutMs: 120_000,
    });
    expect(merged.exitCode, output(merged)).toBe(1);
    const report = JSON.parse(await readFile(join(p.dir, REPORT), 'utf8')) as Report;
    expect(comparable(report)).toEqual(comparable(unsharded));
    expect(report.summary).toEqual({ total: 20, passed: 10, failed: 10 });
    // Each trial ran once, on one shard or another.
    const runs = (await readFile(p.log, 'utf8')).trim().split('\n');
    expect(runs).toHaveLength(20);
    expect(new Set(runs).size).toBe(10);

    // The step summary: what was there, then the scoreboard.
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary.startsWith('# earlier step\n')).toBe(true);
    expect(summary).toContain(await readFile(join(p.dir, '.gz-bench/scoreboard.md'), 'utf8'));
    expect(summary).toMatch(/\| *mine *\|/);

    // JUnit names each cell `suite > agent > case`, and carries its outcomes and failure.
    const cases = junitCases(await readFile(join(p.dir, 'junit.xml'), 'utf8'));
    expect(cases.map(({ name, outcome }) => `${name}: ${outcome}`).sort()).toEqual([
      'alpha > mine > a-flaky: 1/2 passed: passed, failed',
      'alpha > mine > a-pass: 2/2 passed: passed, passed',
      'alpha > other > a-flaky: 1/2 passed: passed, failed',
      'alpha > other > a-pass: 2/2 passed: passed, passed',
      'beta > mine > b-wrong: 0/2 passed: failed, failed',
      'beta > other > b-wrong: 0/2 passed: failed, failed',
      'gamma > mine > c-crash: 0/2 passed: agentError, agentError',
      'gamma > mine > c-pass: 2/2 passed: passed, passed',
      'gamma > other > c-crash: 0/2 passed: agentError, agentError',
      'gamma > other > c-pass: 2/2 passed: passed, passed',
    ]);
    expect(cases.find((c) => c.name === 'gamma > mine > c-crash')?.failure).toBe(
      '0 of 2 trials passed, and the cell passes when more than half of its trials pass: trial 1: agent command exited with 3: trial-log: crashed; trial 2: agent command exited with 3: trial-log: crashed',
    );
    expect(cases.find((c) => c.name === 'alpha > mine > a-pass')?.failure).toBeUndefined();
    // The single run's JUnit says the same.
    const singleCases = junitCases(await readFile(join(single.dir, 'junit.xml'), 'utf8'));
    expect(singleCases.map(({ name, outcome, failure }) => [name, outcome, failure]).sort()).toEqual(
      cases.map(({ name, outcome, failure }) => [name, outcome, failure]).sort(),
    );
    await expectNothingLeft(expect, p.tmp, []);
    await expectNothingLeft(expect, single.tmp, []);
  });
  it('fails the merge job on a regression against the committed baselines, and only on one', async ({ expect }) => {
    const { shardArgs, mergeArgs } = recipeCommands(await readFile(join(REPO_ROOT, 'docs/github-actions.yml'), 'utf8'));
    const p = await baselineProject();
    const env = { TMPDIR: p.tmp };
    // What a repository commits: the baselines of a run, b-wrong a known failure, a-flaky 2 of 3.
    const update = await runVitest(['run', '-u'], { cwd: p.dir, env, timeoutMs: 120_000 });
    expect(update.exitCode, output(update)).toBe(0);
    expect((await readdir(join(p.dir, 'bench'))).filter((name) => name.endsWith('.baseline.json')).sort()).toEqual([
      'a.bench.baseline.json',
      'b.bench.baseline.json',
      'c.bench.baseline.json',
    ]);

    const shardsThenMerge = async () => {
      await rm(join(p.dir, '.vitest-reports'), { recursive: true, force: true });
      for (const shard of [1, 2, 3]) {
        const result = await runVitest(shardArgs(shard), { cwd: p.dir, env, timeoutMs: 120_000 });
        expect(result.exitCode === 0 || result.exitCode === 1, output(result)).toBe(true);
      }
      const merged = await runVitest(mergeArgs, { cwd: p.dir, env, timeoutMs: 120_000 });
      const report = JSON.parse(await readFile(join(p.dir, REPORT), 'utf8')) as Report;
      return { merged, report };
    };

    // The same agent again: a known failure and a flaky cell do not fail the job.
    const same = await shardsThenMerge();
    expect(same.merged.exitCode, output(same.merged)).toBe(0);
    expect(same.report.baseline).toMatchObject({ knownFailures: 1, regressions: 0, improvements: 0 });
    expect(same.report.summary.failed).toBeGreaterThan(0);

    // The agent made worse on a-pass, on every trial: a significant drop, which fails the job.
    await p.writeSuites('fail');
    const worse = await shardsThenMerge();
    expect(worse.merged.exitCode, output(worse.merged)).toBe(1);
    expect(worse.report.baseline).toMatchObject({ knownFailures: 1, regressions: 1, improvements: 0 });
    expect(worse.report.baseline?.changes).toEqual([
      expect.objectContaining({ caseId: 'a-pass', agentName: 'mine', verdict: 'regression' }),
    ]);
    expect(output(worse.merged)).toContain('regressed against the baseline: 3/3 → 0/3');
    await expectNothingLeft(expect, p.tmp, []);
  });
});
