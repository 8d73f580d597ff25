import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeSandbox, type Report, type ReportResult } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { runCli, runVitest } from './support/run.js';
import { sh } from './support/shell.js';

// Without a working bubblewrap here, the runs use the one mode there is.
const SANDBOXES = ['none', ...((await probeSandbox()).available ? ['bwrap'] : [])];

// A suite with a committed baseline beside it, and an agent whose skill the test sets per case and
// trial: it answers `ok` exactly to the prompts listed (with the trial) in its `skill` file, so every
// cell's tally is what the test wrote there.

const { project } = cleanupAfterAll();

const check = { kind: 'outputMatches', pattern: '^ok$', flags: 'm' };
/** The agent: `ok` when its prompt and trial are listed in the skill file, else `no`. */
const agentOf = (skillFile: string) =>
  `grep -qxF "$GZ_BENCH_PROMPT $GZ_BENCH_TRIAL" ${sh(skillFile)} && echo ok || echo no`;

function suiteOf(ids: string[]) {
  return { name: 'tasks', cases: ids.map((id, index) => ({ id, prompt: `task${index}`, checks: [check] })) };
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** A project with the suite, its agent's skill file and a private TMPDIR. */
async function benchProject(ids: string[], files: Record<string, string | object> = {}) {
  const p = await project({ 'bench/tasks.bench.json': suiteOf(ids), ...files });
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  const agent = agentOf(join(p.dir, 'skill'));
  /** Which (case index, trial) pairs the agent gets right. */
  const skill = (solved: Array<[number, number]>) =>
    writeFile(join(p.dir, 'skill'), solved.map(([index, trial]) => `task${index} ${trial}\n`).join(''));
  const run = (args: string[], sandbox = 'none') =>
    runCli(['run', 'bench/tasks.bench.json', '--cmd', agent, '--sandbox', sandbox, ...args], {
      cwd: p.dir,
      env: { TMPDIR: tmp },
      timeoutMs: 120_000,
    });
  const baselineText = () => readFile(join(p.dir, 'bench/tasks.bench.baseline.json'), 'utf8');
  return { p, tmp, agent, skill, run, baselineText };
}

function rowOf(report: Report, id: string): ReportResult {
  const row = report.results.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

describe('baselines through gz-bench run', () => {
  it('writes a baseline with --update, then fails a regression and passes an improvement and a known failure', async ({
    expect,
  }) => {
    const { skill, run, baselineText } = await benchProject(['steady', 'worse', 'better', 'never']);
    await skill([
      [0, 1],
      [1, 1],
    ]);
    const first = await run(['--update']);
    // An update accepts what the run did: its failures become known failures.
    expect(first.exitCode, output(first)).toBe(0);
    expect(String(first.stdout)).toContain('baseline written: bench/tasks.bench.baseline.json');
    const written = await baselineText();
    expect(JSON.parse(written)).toEqual({
      $comment: expect.stringContaining('gz-bench baseline of tasks.bench.json'),
      gzBenchBaseline: 1,
      passRule: 'majority',
      cases: {
        better: { passes: 0, trials: 1, outcome: 'failed' },
        never: { passes: 0, trials: 1, outcome: 'failed' },
        steady: { passes: 1, trials: 1, outcome: 'passed' },
        worse: { passes: 1, trials: 1, outcome: 'passed' },
      },
    });

    // Made worse on one case, better on another.
    await skill([
      [0, 1],
      [2, 1],
    ]);
    const moved = await run([]);
    expect(moved.exitCode, output(moved)).toBe(1);
    const stdout = String(moved.stdout);
    expect(stdout).toContain(
      'baseline: 1 known failure, 1 regression, 1 improvement, 1 as before (baseline stale: run with -u)',
    );
    expect(stdout).toContain('regression bench/tasks.bench.json: "worse" 1/1 → 0/1');
    expect(stdout).toContain('improvement bench/tasks.bench.json: "better" 0/1 → 1/1');
    // Vitest's own verdict names it, with the cell's failure.
    expect(String(moved.stderr) + stdout).toContain(
      'regressed against the baseline: 1/1 → 0/1: output does not match /^ok$/m',
    );
    // Without --update the file stays as committed.
    expect(await baselineText()).toBe(written);

    // The rows keep their honest outcomes, and gain the judgement.
    const json = await run(['--json']);
    expect(json.exitCode, output(json)).toBe(1);
    const report = JSON.parse(String(json.stdout)) as Report;
    expect(rowOf(report, 'never')).toMatchObject({
      passed: false,
      outcome: 'failed',
      baseline: { verdict: 'knownFailure', passes: 0, trials: 1 },
    });
    expect(rowOf(report, 'worse')).toMatchObject({
      passed: false,
      baseline: { verdict: 'regression', passes: 1, trials: 1 },
    });
    expect(rowOf(report, 'better')).toMatchObject({ passed: true, baseline: { verdict: 'improvement' } });
    expect(report.summary).toMatchObject({ total: 4, passed: 2, failed: 2 });
    expect(report.baseline).toMatchObject({ knownFailures: 1, regressions: 1, improvements: 1, same: 1, stale: true });

    // With only a known failure left the run passes, in the sandbox as without it.
    await skill([
      [0, 1],
      [1, 1],
    ]);
    for (const sandbox of SANDBOXES) {
      const known = await run([], sandbox);
      expect(known.exitCode, output(known)).toBe(0);
      expect(String(known.stdout)).toMatch(/^baseline: 2 known failures, 2 as before$/m);
    }
  });

  it('with trials, tells a flip by chance (3/3 → 2/3) from a true regression (3/3 → 0/3)', async ({ expect }) => {
    const { skill, run } = await benchProject(['chance', 'real', 'fine']);
    const all = (index: number) => [1, 2, 3].map((trial) => [index, trial] as [number, number]);
    await skill([...all(0), ...all(1), ...all(2)]);
    const first = await run(['--trials', '3', '--update']);
    expect(first.exitCode, output(first)).toBe(0);
    await skill([[0, 1], [0, 3], ...all(2)]);
    const result = await run(['--trials', '3', '--json']);
    expect(result.exitCode, output(result)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(rowOf(report, 'chance').baseline).toEqual({ verdict: 'same', passes: 3, trials: 3 });
    expect(rowOf(report, 'real').baseline).toEqual({ verdict: 'regression', passes: 3, trials: 3, p: 0.025 });
    expect(report.baseline?.changes).toEqual([
      {
        file: 'bench/tasks.bench.json',
        caseId: 'real',
        verdict: 'regression',
        from: { passes: 3, trials: 3 },
        to: { passes: 0, trials: 3 },
        p: 0.025,
      },
    ]);
    expect(String(result.stderr)).toContain('regressed against the baseline: 3/3 → 0/3 (p = 0.025)');
    expect(String(result.stderr)).not.toContain('3/3 → 2/3');
  });

  it('removes obsolete entries on update, keeps what a filtered update did not run, and a re-run is clean', async ({
    expect,
  }) => {
    const { p, skill, run, baselineText } = await benchProject(['a', 'b', 'gone']);
    await skill([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    expect((await run(['-u'])).exitCode).toBe(0);
    await p.write('bench/tasks.bench.json', suiteOf(['a', 'b']));
    const reported = await run([]);
    expect(reported.exitCode, output(reported)).toBe(0);
    expect(String(reported.stdout)).toContain(
      'obsolete baseline entry bench/tasks.bench.baseline.json: "gone" (removed by -u)',
    );
    expect(String(reported.stdout)).toContain('(baseline stale: run with -u)');

    // A filtered update: b now fails, and only a runs; b keeps its entry, gone goes.
    await skill([[0, 1]]);
    const filtered = await run(['-u', '-t', '^tasks a$']);
    expect(filtered.exitCode, output(filtered)).toBe(0);
    expect(JSON.parse(await baselineText()).cases).toEqual({
      a: { passes: 1, trials: 1, outcome: 'passed' },
      b: { passes: 1, trials: 1, outcome: 'passed' },
    });
    // The full update takes b's failure; the next run is clean and leaves the file as it is.
    expect((await run(['-u'])).exitCode).toBe(0);
    const updated = await baselineText();
    expect(JSON.parse(updated).cases.b).toEqual({ passes: 0, trials: 1, outcome: 'failed' });
    const clean = await run([]);
    expect(clean.exitCode, output(clean)).toBe(0);
    expect(String(clean.stdout)).toMatch(/^baseline: 1 known failure, 1 as before$/m);
    expect(String(clean.stdout)).not.toContain('stale');
    expect(String(clean.stdout)).not.toContain('obsolete');
    expect(await baselineText()).toBe(updated);
  });

  it('round-trips case ids with odd characters', async ({ expect }) => {
    const ids = ['__proto__', 'constructor', 'with "quotes"', 'ünïcødé 🚀', 'a > b', 'toString'];
    const { skill, run, baselineText } = await benchProject(ids);
    await skill([
      [0, 1],
      [2, 1],
      [4, 1],
    ]);
    expect((await run(['-u'])).exitCode).toBe(0);
    const cases = JSON.parse(await baselineText()).cases as Record<string, unknown>;
    expect(Object.keys(cases).sort()).toEqual([...ids].sort());
    expect(Object.getOwnPropertyDescriptor(cases, '__proto__')?.value).toEqual({
      passes: 1,
      trials: 1,
      outcome: 'passed',
    });
    // Each id meets its own entry: the ones that passed regress when the agent stops solving them.
    await skill([[2, 1]]);
    const result = await run(['--json']);
    expect(result.exitCode, output(result)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.results.map((row) => [row.id, row.baseline?.verdict])).toEqual([
      ['__proto__', 'regression'],
      ['constructor', 'knownFailure'],
      ['with "quotes"', 'same'],
      ['ünïcødé 🚀', 'knownFailure'],
      ['a > b', 'regression'],
      ['toString', 'knownFailure'],
    ]);
  });

  it('refuses a corrupt or hand-edited baseline in one line, exit 2, and never takes a baseline for a suite', async ({
    expect,
  }) => {
    const { p, skill, run, agent, tmp } = await benchProject(['a']);
    await skill([[0, 1]]);
    for (const [text, problem] of [
      ['{ "gzBenchBaseline": 1, "passRule": ', 'invalid baseline: not JSON'],
      [
        JSON.stringify({ gzBenchBaseline: 1, passRule: 'majority', cases: { a: { passes: 2, trials: 1 } } }),
        'invalid baseline at cases["a"].passes: 2 passes of 1 trials',
      ],
    ] as const) {
      await p.write('bench/tasks.bench.baseline.json', text);
      const result = await run([]);
      expect(result.exitCode, output(result)).toBe(2);
      const lines = String(result.stderr).trim().split('\n');
      expect(lines, output(result)).toHaveLength(1);
      expect(lines[0]).toContain(`gz-bench: bench/tasks.bench.baseline.json: ${problem}`);
      expect(String(result.stderr)).not.toMatch(/\n\s+at /);
    }
    await p.write('bench/tasks.bench.baseline.json', { gzBenchBaseline: 1, passRule: 'majority', cases: {} });
    // A glob that names the baseline beside its suite runs the suite once, judged by it.
    const globbed = await runCli(
      ['run', 'bench/tasks.bench.json', 'bench/tasks.bench.baseline.json', '--cmd', agent, '--sandbox', 'none'],
      {
        cwd: p.dir,
        env: { TMPDIR: tmp },
      },
    );
    expect(globbed.exitCode, output(globbed)).toBe(0);
    expect(String(globbed.stdout)).toContain('1 case: 1 passed');
    // Named alone, it is refused with the suite to name instead.
    for (const args of [
      ['validate', 'bench/tasks.bench.baseline.json'],
      ['run', 'bench/tasks.bench.baseline.json', '--cmd', 'true'],
    ]) {
      const refused = await runCli(args, { cwd: p.dir, env: { TMPDIR: tmp } });
      expect(refused.exitCode, output(refused)).toBe(2);
      expect(String(refused.stderr)).toBe(
        'gz-bench: bench/tasks.bench.baseline.json: this is a baseline file, not a suite: name its suite bench/tasks.bench.json instead',
      );
    }
  });
});

describe('baselines through vitest', () => {
  it('vitest run -u writes the baseline; the test status then carries the judgement', async ({ expect }) => {
    const suite = suiteOf(['keeps', 'drops', 'never']);
    const p = await project({ 'bench/tasks.bench.json': suite });
    const tmp = join(p.dir, 'tmp');
    await mkdir(tmp);
    const agent = agentOf(join(p.dir, 'skill'));
    for (const [path, content] of Object.entries(pluginProjectFiles({ cmd: agent, include: ['bench/**/*.json'] }))) {
      await p.write(path, content);
    }
    const skill = (solved: number[]) =>
      writeFile(join(p.dir, 'skill'), solved.map((index) => `task${index} 1\n`).join(''));
    const vitest = (args: string[]) =>
      runVitest(['run', ...args], { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 120_000 });
    await skill([0, 1]);
    const plain = await vitest([]);
    expect(plain.exitCode, output(plain)).toBe(1);
    const updated = await vitest(['-u']);
    expect(updated.exitCode, output(updated)).toBe(0);
    const baseline = JSON.parse(await readFile(join(p.dir, 'bench/tasks.bench.baseline.json'), 'utf8'));
    expect(baseline.cases).toEqual({
      drops: { passes: 1, trials: 1, outcome: 'passed' },
      keeps: { passes: 1, trials: 1, outcome: 'passed' },
      never: { passes: 0, trials: 1, outcome: 'failed' },
    });
    // The include matches the baseline file too: it is never loaded as a suite.
    expect(String(updated.stdout)).toContain('Test Files  1 passed (1)');

    // Only the known failure: Vitest passes.
    const known = await vitest([]);
    expect(known.exitCode, output(known)).toBe(0);
    expect(String(known.stdout)).toContain('baseline: 1 known failure, 2 as before');
    const report = JSON.parse(await readFile(join(p.dir, '.gz-bench/report.json'), 'utf8')) as Report;
    expect(rowOf(report, 'never')).toMatchObject({ passed: false, baseline: { verdict: 'knownFailure' } });

    // A regression fails the test, and with it Vitest's exit code, reporters and JUnit.
    await skill([0]);
    const junit = join(p.dir, 'junit.xml');
    const regressed = await vitest(['--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`]);
    expect(regressed.exitCode, output(regressed)).toBe(1);
    expect(String(regressed.stdout)).toContain('regression bench/tasks.bench.json: "drops" 1/1 → 0/1');
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('regressed against the baseline: 1/1 → 0/1');
    // A baseline edited into nonsense fails its suite's file with one line, and judges nothing.
    await p.write('bench/tasks.bench.baseline.json', { gzBenchBaseline: 1, passRule: 'majority', cases: { keeps: 1 } });
    const corrupt = await vitest([]);
    expect(corrupt.exitCode, output(corrupt)).toBe(1);
    expect(String(corrupt.stdout) + String(corrupt.stderr)).toContain(
      'bench/tasks.bench.baseline.json: invalid baseline at cases["keeps"]: must be an object { passes, trials }; fix it',
    );
    expect(String(corrupt.stderr)).not.toMatch(/\n\s+at /);
    // A known failure passes, with the note on the test that says so.
    expect(xml).toMatch(
      /<testcase[^>]*name="tasks &gt; never"[^>]*>\s*<properties>(?:\s*<property name="[^"]*" value="[^"]*">\s*<\/property>)*\s*<property name="notice" value="known failure: 0\/1 → 0\/1">\s*<\/property>\s*<\/properties>\s*<\/testcase>/,
    );
  });
});
