import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Comparison, Report, ReportResult } from '@gz-bench/core';
import { execa, type Result } from 'execa';
import { describe, type ExpectStatic, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { CLI_BIN } from './support/paths.js';
import type { TempProject } from './support/project.js';
import { cleanEnv, runCli } from './support/run.js';

// End-to-end tests of `gz-bench compare`: real `gz-bench run --json` reports of a scripted agent that
// gets worse on one case and better on another between a base and a head run, then the compare CLI as
// a process, as a user or a CI job would run it.

const { project } = cleanupAfterAll();

/**
 * Each case's prompt is the agent: a shell script that gets the run's variant (`base`, `noise` or
 * `head`) as $1 and its trial as GZ_BENCH_TRIAL, and passes by writing done.txt.
 */
const SUITE = {
  name: 'skills',
  cases: [
    { id: 'steady', prompt: 'echo ok > done.txt' },
    // Passes in base and noise runs, never in head runs: a true regression.
    { id: 'regresses', prompt: '[ "$1" = head ] || echo ok > done.txt' },
    // Passes only in head runs: an improvement.
    { id: 'improves', prompt: '[ "$1" = head ] && echo ok > done.txt; true' },
    // Fails the first trial outside base runs: with three trials, a drop that chance explains.
    { id: 'flaky', prompt: '[ "$1" != base ] && [ "$GZ_BENCH_TRIAL" = 1 ] || echo ok > done.txt' },
  ].map((spec) => ({ ...spec, checks: [{ kind: 'fileExists', path: 'done.txt' }] })),
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** A project with the suite and a private TMPDIR, so nothing a run leaves can meet another test's. */
async function compareProject(): Promise<{ dir: TempProject; env: Record<string, string> }> {
  const dir = await project({ 'bench/skills.bench.json': SUITE });
  const tmp = join(dir.dir, 'tmp');
  await mkdir(tmp);
  return { dir, env: { TMPDIR: tmp } };
}

/** Runs the suite as `variant` with `trials` and writes its JSON report to `file`. */
async function runVariant(
  { dir, env }: { dir: TempProject; env: Record<string, string> },
  variant: string,
  trials: number,
  file: string,
): Promise<Report> {
  const result = await runCli(
    [
      'run',
      '--sandbox',
      'none',
      'bench/skills.bench.json',
      '--cmd',
      `sh -c {{prompt}} -- ${variant}`,
      '--trials',
      String(trials),
      '--json',
    ],
    { cwd: dir.dir, env, timeoutMs: 120_000 },
  );
  if (result.stdout === '') throw new Error(output(result));
  await dir.write(file, String(result.stdout));
  return JSON.parse(String(result.stdout)) as Report;
}

function compare(dir: TempProject, args: string[], env: Record<string, string> = {}): Promise<Result> {
  return runCli(['compare', ...args], { cwd: dir.dir, env });
}

/** The one line of a usage or input error: no stack trace, nothing on stdout. */
function expectOneLineError(expect: ExpectStatic, result: Result, message: string | RegExp): void {
  expect(result.exitCode, output(result)).toBe(2);
  expect(result.stdout).toBe('');
  const lines = String(result.stderr).trimEnd().split('\n');
  if (typeof message === 'string') expect(lines[0]).toBe(`gz-bench: ${message}`);
  else expect(lines[0]).toMatch(message);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(result.stderr).not.toContain('    at ');
}

describe('gz-bench compare: one trial a side', () => {
  it('fails on a case that flipped to failing and shows every flip', async ({ expect }) => {
    const p = await compareProject();
    await runVariant(p, 'base', 1, 'base.json');
    const head = await runVariant(p, 'head', 1, 'head.json');
    expect(head.summary).toMatchObject({ total: 4, passed: 2 });

    const result = await compare(p.dir, ['base.json', 'head.json']);
    expect(result.exitCode, output(result)).toBe(1);
    const lines = String(result.stdout).split('\n');
    const rows = lines.filter((line) => /^ {2}(regresses|improves|flaky|steady) /.test(line));
    // Flips first, pass → fail before fail → pass; the steady case is not listed.
    expect(rows.map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ['regresses', 'agent', '1/1', '0/1', 'pass → fail', 'regression', 'one trial'],
      ['flaky', 'agent', '1/1', '0/1', 'pass → fail', 'regression', 'one trial'],
      ['improves', 'agent', '0/1', '1/1', 'fail → pass', 'improvement', 'one trial'],
    ]);
    expect(result.stdout).toContain('1 of 4 cells in both reports did not change.');
    expect(lines.at(-1)).toBe(
      'Verdict: regression: regresses (agent) 1/1 → 0/1, one trial each; flaky (agent) 1/1 → 0/1, one trial each; 1 case improved (improves (agent) 0/1 → 1/1, one trial each)',
    );

    // Head against itself: nothing changed.
    const same = await compare(p.dir, ['head.json', 'head.json']);
    expect(same.exitCode, output(same)).toBe(0);
    expect(same.stdout).toContain('Verdict: within noise: no case changed');

    // Base from head: the mirror image is an improvement only if nothing regressed; here both ways flipped.
    const back = await compare(p.dir, ['head.json', 'base.json', '--json']);
    expect(back.exitCode).toBe(1);
    const model = JSON.parse(String(back.stdout)) as Comparison;
    expect(model.cells.find((c) => c.id === 'improves')?.flip).toBe('passToFail');
  });
});

describe('gz-bench compare: trials', () => {
  it('tells a case that truly regressed from one that dropped by chance', async ({ expect }) => {
    const p = await compareProject();
    await runVariant(p, 'base', 3, 'base.json');
    await runVariant(p, 'noise', 3, 'noise.json');
    await runVariant(p, 'head', 3, 'head.json');

    // Only flaky changed, 3/3 → 2/3: within noise, and the job passes.
    const noise = await compare(p.dir, ['base.json', 'noise.json']);
    expect(noise.exitCode, output(noise)).toBe(0);
    expect(noise.stdout).toContain(
      'Verdict: within noise: 1 case changed, none significantly (flaky (agent) 3/3 → 2/3, p = 0.25)',
    );

    // regresses 3/3 → 0/3 is significant (mid-p 0.025); flaky's drop still is not; improves 0/3 → 3/3 is.
    const head = await compare(p.dir, ['base.json', 'head.json', '--json']);
    expect(head.exitCode, output(head)).toBe(1);
    const model = JSON.parse(String(head.stdout)) as Comparison;
    const byId = new Map(model.cells.map((c) => [c.id, c]));
    expect(byId.get('regresses')).toMatchObject({
      base: { trials: 3, passes: 3 },
      head: { trials: 3, passes: 0 },
      flip: 'passToFail',
      change: { verdict: 'regression', method: 'fisherMidP' },
    });
    expect(byId.get('regresses')?.change?.pWorse).toBeCloseTo(0.025, 10);
    expect(byId.get('flaky')?.change?.verdict).toBe('unchanged');
    expect(byId.get('improves')?.change?.verdict).toBe('improvement');
    expect(model.verdict).toBe('regression');
    expect(model.reason).toBe(
      'regression: regresses (agent) 3/3 → 0/3, p = 0.025; 1 case improved (improves (agent) 0/3 → 3/3, p = 0.025); 1 case changed within noise (flaky (agent) 3/3 → 2/3, p = 0.25)',
    );
    expect(model.base.totals).toMatchObject({ trials: 12, passes: 9 });
    expect(model.deltas.durationMs.base).toBeGreaterThan(0);

    // The pull-request comment, and the job summary it is appended to.
    const summary = join(p.dir.dir, 'summary.md');
    await writeFile(summary, '# earlier step\n');
    const md = await compare(p.dir, ['base.json', 'head.json', '--markdown', 'out/compare.md'], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(md.exitCode, output(md)).toBe(1);
    const markdown = await readFile(join(p.dir.dir, 'out/compare.md'), 'utf8');
    expect(markdown).toContain('## gz-bench compare\n\n🔴 **Regression**');
    expect(markdown).toContain('| regresses | agent | 3/3 | 0/3 | pass → fail | regression | 0.025 |');
    expect(await readFile(summary, 'utf8')).toBe(`# earlier step\n${markdown}\n`);
  });
});

describe('gz-bench compare: bad input', () => {
  it('says in one line what is wrong with each report, and exits 2', async ({ expect }) => {
    const { dir } = await compareProject();
    await dir.write('good.json', { summary: { total: 0, passed: 0, failed: 0 }, results: [] });
    await dir.write('bad.json', '{"summary": {');
    await dir.write('package.json', { name: 'not-a-report' });
    await dir.write('row.json', { summary: { total: 1 }, results: [{ id: 'a', file: 'x', suite: 's' }] });

    expectOneLineError(expect, await compare(dir, ['missing.json', 'good.json']), 'missing.json does not exist');
    expectOneLineError(
      expect,
      await compare(dir, ['good.json', 'bad.json']),
      /^gz-bench: bad\.json is not valid JSON \(.+\)$/,
    );
    expectOneLineError(
      expect,
      await compare(dir, ['package.json', 'good.json']),
      'package.json is not a gz-bench JSON report (no "summary" and "results"); pass the file that gz-bench run --json or the report option writes',
    );
    expectOneLineError(
      expect,
      await compare(dir, ['good.json', 'row.json']),
      'row.json is not a valid gz-bench report: results[0].passed: required',
    );
    expectOneLineError(
      expect,
      await compare(dir, ['tmp', 'good.json']),
      'tmp is a directory, not a gz-bench JSON report',
    );
    expectOneLineError(
      expect,
      await compare(dir, ['good.json']),
      'compare takes two reports: gz-bench compare <base.json> <head.json>',
    );
    expectOneLineError(
      expect,
      await compare(dir, ['good.json', 'good.json', '--colour']),
      /^gz-bench: Unknown option '--colour'/,
    );

    await mkdir(join(dir.dir, 'taken.md'));
    expectOneLineError(
      expect,
      await compare(dir, ['good.json', 'good.json', '--markdown', 'taken.md']),
      '--markdown taken.md: cannot write the comparison there (EISDIR)',
    );

    const help = await compare(dir, ['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('gz-bench compare <base.json> <head.json> [--json] [--markdown FILE]');

    // A job summary that cannot be written costs a warning, not the verdict.
    const unwritable = await compare(dir, ['good.json', 'good.json'], { GITHUB_STEP_SUMMARY: join(dir.dir, 'tmp') });
    expect(unwritable.exitCode, output(unwritable)).toBe(0);
    expect(unwritable.stderr).toBe('gz-bench: could not append the comparison to GITHUB_STEP_SUMMARY (EISDIR)');

    const empty = await compare(dir, ['good.json', 'good.json']);
    expect(empty.exitCode, output(empty)).toBe(0);
    expect(empty.stdout).toContain('Verdict: within noise: no case ran in both reports');
  });
});

describe('gz-bench compare: hostile reports', () => {
  function row(id: string, passed: boolean, extra: Partial<ReportResult> = {}): ReportResult {
    return {
      suite: 'big',
      file: 'bench/big.bench.json',
      id,
      passed,
      outcome: passed ? 'passed' : 'failed',
      durationMs: 10,
      checkResults: [],
      ...extra,
    };
  }
  const report = (results: ReportResult[]): Report => ({
    summary: { total: results.length, passed: results.filter((r) => r.passed).length, failed: 0 },
    results,
  });

  it('compares reports of 10,000 rows and finds the one case that regressed', async ({ expect }) => {
    const { dir } = await compareProject();
    const ids = Array.from({ length: 10_000 }, (_, index) => `case-${index}`);
    await dir.write('base.json', JSON.stringify(report(ids.map((id) => row(id, true)))));
    await dir.write('head.json', JSON.stringify(report(ids.map((id, index) => row(id, index !== 4321)))));
    const result = await compare(dir, ['base.json', 'head.json', '--json']);
    expect(result.exitCode, output(result)).toBe(1);
    const model = JSON.parse(String(result.stdout)) as Comparison;
    expect(model.cells).toHaveLength(10_000);
    expect(model.cells.filter((c) => c.flip !== null).map((c) => c.id)).toEqual(['case-4321']);
  });

  it('keeps its exit code, and says nothing, when its reader stops early (| head)', async ({ expect }) => {
    const { dir } = await compareProject();
    const ids = Array.from({ length: 5_000 }, (_, index) => `case-${index}`);
    await dir.write('base.json', JSON.stringify(report(ids.map((id) => row(id, true)))));
    await dir.write('head.json', JSON.stringify(report(ids.map((id) => row(id, false)))));
    const result = await execa(
      'bash',
      ['-c', 'set -o pipefail; "$0" compare base.json head.json --json | head -c 10 > /dev/null', CLI_BIN],
      { cwd: dir.dir, env: cleanEnv(), extendEnv: false, reject: false, timeout: 60_000 },
    );
    expect(result.exitCode, output(result)).toBe(1);
    expect(result.stderr).toBe('');
  });

  it('reads a 50 MB report', async ({ expect }) => {
    const { dir } = await compareProject();
    const tail = 'x'.repeat(10_000);
    const agent = {
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 1,
      outputTail: tail,
      outputBytes: 1,
      outputDroppedBytes: 0,
    };
    const rows = Array.from({ length: 5_000 }, (_, index) => row(`case-${index}`, true, { agent }));
    const text = JSON.stringify(report(rows));
    expect(text.length).toBeGreaterThan(50_000_000);
    await dir.write('big.json', text);
    const result = await compare(dir, ['big.json', 'big.json']);
    expect(result.exitCode, output(result)).toBe(0);
    expect(result.stdout).toContain('Verdict: within noise: no case changed');
  });

  it('keeps ids with pipes, markup and line breaks inside their Markdown cells', async ({ expect }) => {
    const { dir } = await compareProject();
    const odd = ['pipe|in|id', '`code`*bold*', 'line\nbreak', '<script>x</script>'];
    await dir.write('base.json', report(odd.map((id) => row(id, true))));
    await dir.write('head.json', report(odd.map((id) => row(id, false))));
    const result = await compare(dir, ['base.json', 'head.json', '--markdown', 'comment.md']);
    expect(result.exitCode, output(result)).toBe(1);
    const markdown = await readFile(join(dir.dir, 'comment.md'), 'utf8');
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && line.includes('pass → fail'));
    expect(rows).toHaveLength(4);
    // Seven columns: eight unescaped pipes in every row, whatever the id holds.
    for (const line of rows) expect(line.replaceAll('\\|', '').split('|')).toHaveLength(9);
    expect(markdown).toContain('| pipe\\|in\\|id |');
    expect(markdown).toContain('| line break |');
    expect(markdown).not.toMatch(/(?<!\\)<script/);
    expect(await readdir(dir.dir)).toContain('comment.md');
  });
});
