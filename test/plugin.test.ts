import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginConfig, pluginProjectFiles } from './support/plugin-project.js';
import type { TempProject } from './support/project.js';
import { resultOf } from './support/report.js';
import { runVitest } from './support/run.js';
import { nodeCommand, sh } from './support/shell.js';
import { type CaseSpec, suite } from './support/suite.js';

// End-to-end tests of the Vitest plugin and reporter: each test writes a project that uses gzBench() in
// its vitest.config.ts, runs the real `vitest` CLI in it, and reads what a user would see: the exit
// code, Vitest's output, the gz-bench table and the JSON report.

/** Removed once the whole file is done: temp projects, and workspaces kept with `keep: true`. */
const cleanup = cleanupAfterAll();

/** The bundled scripted agent, as a command template. */
const SCRIPTED_CMD = `node ${sh(agentPath('scripted.mjs'))} "{{prompt}}"`;
const REPORT = 'out/report.json';

const writeHello: CaseSpec = {
  id: 'write-hello',
  prompt: "Create hello.txt containing 'hi'.",
  checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }],
};
const WRONG_MESSAGE = 'file does not contain "hi": hello.txt';
const writeWrong: CaseSpec = {
  id: 'write-wrong',
  prompt: "Create hello.txt containing 'bye'.",
  checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }],
};
const replyDone: CaseSpec = {
  id: 'reply-done',
  prompt: "Reply with 'done'.",
  checks: [{ kind: 'outputMatches', pattern: '^done$', flags: 'm' }],
};

const SUM_TEST = ["import { expect, test } from 'vitest';", "test('adds', () => { expect(1 + 2).toBe(3); });", ''].join(
  '\n',
);

/** A temp project with a package.json, the given config options and files; removed after the file. */
async function project(
  options: Record<string, unknown>,
  files: Record<string, string | object> = {},
): Promise<TempProject> {
  return cleanup.project({ ...pluginProjectFiles(options), ...files });
}

async function readReport(dir: string, path = REPORT): Promise<Report> {
  return JSON.parse(await readFile(join(dir, path), 'utf8')) as Report;
}

/** Everything a failed run printed, for assertion messages. */
function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

const TABLE_HEADER = /^id\s+result\s+checks\s+time\s+first failure$/m;

/** A table row: the case label (optionally `suite > `), result, checks, time and first failure. */
function tableRow(id: string, result: 'PASS' | 'FAIL', checks: string, failure = ''): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tail = failure === '' ? '' : `\\s+${literal(failure)}`;
  return new RegExp(`^(\\S+ > )?${literal(id)}\\s+${result}\\s+${literal(checks)}\\s+\\d+ms${tail}$`, 'm');
}

/** 1-based line of a case's `"id"` in a suite written by TempProject.write (pretty JSON). */
function caseLine(source: string, id: string): number {
  const idLine = source.split('\n').findIndex((line) => line.includes(`"id": ${JSON.stringify(id)}`));
  if (idLine < 1) throw new Error(`case ${id} not found`);
  return idLine + 1;
}

/** Writes a small node script into the project and returns a command line that runs it with `args`. */
async function script(p: TempProject, name: string, source: string, ...args: string[]): Promise<string> {
  return nodeCommand(await p.write(name, source), ...args);
}

describe.concurrent('vitest run with the gz-bench plugin', () => {
  it('fails the run for a failing case, writes the report, and prints the table after Vitest’s summary', async ({
    expect,
  }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      {
        'bench/a.bench.json': suite('alpha', [writeHello, writeWrong]),
        'bench/b.bench.json': suite('beta', [replyDone]),
        // Outside bench/: the filter leaves it out.
        'src/sum.test.ts': SUM_TEST,
      },
    );
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir });
    const stdout = String(result.stdout);
    const stderr = String(result.stderr);
    expect(result.exitCode, output(result)).toBe(1);
    expect(stdout).not.toContain('src/sum.test.ts');

    const report = await readReport(p.dir);
    expect(Object.keys(report)).toEqual(['summary', 'results', 'meta']);
    expect(report.summary).toEqual({ total: 3, passed: 2, failed: 1 });
    expect(report.meta?.vitestVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.results.map((r) => [r.file, r.suite, r.id, r.passed])).toEqual([
      ['bench/a.bench.json', 'alpha', 'write-hello', true],
      ['bench/a.bench.json', 'alpha', 'write-wrong', false],
      ['bench/b.bench.json', 'beta', 'reply-done', true],
    ]);
    for (const row of report.results) {
      // The README's keys first, in its order; gz-bench's own follow.
      expect(Object.keys(row).slice(0, 6)).toEqual(['id', 'passed', 'durationMs', 'checkResults', 'suite', 'file']);
      expect(row.durationMs).toBeGreaterThan(0);
      expect(row.agent?.exitCode).toBe(0);
    }

    const hello = resultOf(report, 'write-hello');
    expect(hello.checkResults).toEqual([{ kind: 'fileContains', path: 'hello.txt', text: 'hi', passed: true }]);
    expect(hello.agent?.outputTail).toBe("scripted agent: done: Create hello.txt containing 'hi'\n");
    expect(hello).not.toHaveProperty('error');

    const wrong = resultOf(report, 'write-wrong');
    expect(wrong).toMatchObject({ error: WRONG_MESSAGE, failedStep: 'check' });
    expect(wrong.checkResults).toEqual([
      { kind: 'fileContains', path: 'hello.txt', text: 'hi', passed: false, message: WRONG_MESSAGE },
    ]);
    expect(wrong.agent?.outputTail).toContain("done: Create hello.txt containing 'bye'");
    expect(resultOf(report, 'reply-done').agent?.outputTail).toMatch(/^done$/m);

    // The table comes after Vitest's own summary, one row per case, the failure's message in its row.
    const summaryAt = stdout.indexOf('Test Files');
    const header = TABLE_HEADER.exec(stdout);
    expect(summaryAt, stdout).toBeGreaterThan(-1);
    expect(header?.index, stdout).toBeGreaterThan(summaryAt);
    const table = stdout.slice(header?.index);
    expect(table).toMatch(tableRow('write-hello', 'PASS', '1/1'));
    expect(table).toMatch(tableRow('write-wrong', 'FAIL', '0/1', WRONG_MESSAGE));
    expect(table).toMatch(tableRow('reply-done', 'PASS', '1/1'));
    expect(table).toContain('3 cases: 2 passed, 1 failed');

    // Vitest's own error for the failing case carries the failure message and points into the suite.
    expect(stderr).toContain('bench/a.bench.json > alpha > write-wrong');
    expect(stderr).toContain(`CaseFailure: ${WRONG_MESSAGE}`);
    expect(stderr).toMatch(/❯ bench\/a\.bench\.json:\d+:\d+/);
  });

  it('exits 0 when every case passes, and the unit tests beside the suites run but stay out of the report', async ({
    expect,
  }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      { 'bench/b.bench.json': suite('beta', [replyDone, writeHello]), 'src/sum.test.ts': SUM_TEST },
    );
    const result = await runVitest(['run'], { cwd: p.dir });
    const stdout = String(result.stdout);
    expect(result.exitCode, output(result)).toBe(0);
    expect(stdout).toMatch(/✓ src\/sum\.test\.ts \(1 test\)/);
    expect(stdout).toMatch(/✓ bench\/b\.bench\.json \(2 tests\)/);
    expect(stdout).toMatch(/Tests\s+3 passed \(3\)/);

    const report = await readReport(p.dir);
    expect(report.summary).toEqual({ total: 2, passed: 2, failed: 0 });
    expect(report.results.map((r) => `${r.file}#${r.id}`)).toEqual([
      'bench/b.bench.json#reply-done',
      'bench/b.bench.json#write-hello',
    ]);
    expect(JSON.stringify(report)).not.toContain('sum.test');
    expect(stdout).not.toMatch(/^adds\s/m);
    expect(stdout).toContain('2 cases: 2 passed, 0 failed');
  });

  it('-t <case id> runs that case only', async ({ expect }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      {
        'bench/a.bench.json': suite('alpha', [writeHello, writeWrong]),
        'bench/b.bench.json': suite('beta', [replyDone]),
      },
    );
    const result = await runVitest(['run', 'bench/', '-t', 'write-hello'], { cwd: p.dir });
    expect(result.exitCode, output(result)).toBe(0);
    const report = await readReport(p.dir);
    expect(report.summary).toEqual({ total: 1, passed: 1, failed: 0 });
    expect(report.results.map((r) => r.id)).toEqual(['write-hello']);
    expect(String(result.stdout)).toMatch(/Tests\s+1 passed \| 2 skipped \(3\)/);
  });

  it('runs the case at a line of the suite file (vitest run file:line)', async ({ expect }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      { 'bench/a.bench.json': suite('alpha', [writeHello, writeWrong, replyDone]) },
    );
    const source = await readFile(join(p.dir, 'bench/a.bench.json'), 'utf8');

    const wrong = await runVitest(['run', `bench/a.bench.json:${caseLine(source, 'write-wrong')}`], { cwd: p.dir });
    expect(wrong.exitCode, output(wrong)).toBe(1);
    expect((await readReport(p.dir)).results.map((r) => r.id)).toEqual(['write-wrong']);

    const reply = await runVitest(['run', `bench/a.bench.json:${caseLine(source, 'reply-done')}`], { cwd: p.dir });
    expect(reply.exitCode, output(reply)).toBe(0);
    const report = await readReport(p.dir);
    expect(report.results.map((r) => [r.id, r.passed])).toEqual([['reply-done', true]]);
  });

  it('vitest list prints every case without running the agent', async ({ expect }) => {
    const p = await project({ report: REPORT });
    const marker = join(p.dir, 'agent-ran');
    // An agent that leaves a mark outside its workspace whenever it runs.
    const cmd = await script(
      p,
      'agents/marker.mjs',
      "import { appendFileSync } from 'node:fs';\nappendFileSync(process.argv[2], 'ran\\n');\nconsole.log('done');\n",
      marker,
    );
    await p.write('vitest.config.ts', pluginConfig({ cmd, report: REPORT }));
    await p.write('bench/a.bench.json', suite('alpha', [writeHello, writeWrong]));
    await p.write('bench/b.bench.json', suite('beta', [replyDone]));

    const listed = await runVitest(['list'], { cwd: p.dir });
    expect(listed.exitCode, output(listed)).toBe(0);
    // Files are collected in parallel: their order is not fixed.
    expect(String(listed.stdout).trim().split('\n').sort()).toEqual([
      'bench/a.bench.json > alpha > write-hello',
      'bench/a.bench.json > alpha > write-wrong',
      'bench/b.bench.json > beta > reply-done',
    ]);

    // --static-parse reads the generated code without running it: one literal test() per case.
    const parsed = await runVitest(['list', '--static-parse', '--json'], { cwd: p.dir });
    expect(parsed.exitCode, output(parsed)).toBe(0);
    const entries = JSON.parse(String(parsed.stdout)) as Array<{ name: string; file: string; location?: object }>;
    const source = await readFile(join(p.dir, 'bench/a.bench.json'), 'utf8');
    const names = entries.map((entry) => [entry.file.slice(p.dir.length + 1), entry.name]);
    expect(names.sort()).toEqual([
      ['bench/a.bench.json', 'alpha > write-hello'],
      ['bench/a.bench.json', 'alpha > write-wrong'],
      ['bench/b.bench.json', 'beta > reply-done'],
    ]);
    // The location is the case's id in the JSON (through the plugin's source map).
    expect(entries.find((entry) => entry.name.endsWith('write-wrong'))?.location).toEqual({
      line: caseLine(source, 'write-wrong'),
      column: 12,
    });

    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(p.dir, REPORT))).toBe(false);

    // Control: the same agent does leave its mark when the cases run.
    const ran = await runVitest(['run', '-t', 'reply-done'], { cwd: p.dir });
    expect(ran.exitCode, output(ran)).toBe(0);
    expect(await readFile(marker, 'utf8')).toBe('ran\n');
  });

  it('--retry reruns a failing case until it passes', async ({ expect }) => {
    const p = await project({ report: REPORT });
    const counter = join(p.dir, 'attempts.txt');
    // Fails its first two attempts (counted outside the workspace), does the job on the third.
    const cmd = await script(
      p,
      'agents/flaky.mjs',
      [
        "import { existsSync, readFileSync, writeFileSync } from 'node:fs';",
        'const counter = process.argv[2];',
        "const attempt = (existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0) + 1;",
        'writeFileSync(counter, String(attempt));',
        "if (attempt < 3) { console.error('attempt ' + attempt + ': failing'); process.exit(1); }",
        "writeFileSync('ok.txt', 'attempt ' + attempt + '\\n');",
        '',
      ].join('\n'),
      counter,
    );
    await p.write('vitest.config.ts', pluginConfig({ cmd, report: REPORT }));
    await p.write(
      'bench/flaky.bench.json',
      suite('flaky', [
        { id: 'third-time-lucky', prompt: 'go', checks: [{ kind: 'fileContains', path: 'ok.txt', text: 'attempt 3' }] },
      ]),
    );

    const result = await runVitest(['run', 'bench/', '--retry=2'], { cwd: p.dir });
    expect(result.exitCode, output(result)).toBe(0);
    expect(await readFile(counter, 'utf8')).toBe('3');
    const report = await readReport(p.dir);
    expect(report.summary).toEqual({ total: 1, passed: 1, failed: 0 });
    const row = resultOf(report, 'third-time-lucky');
    expect(row).toMatchObject({ passed: true, agent: { exitCode: 0 } });
    expect(row).not.toHaveProperty('error');
    expect(row.checkResults).toEqual([{ kind: 'fileContains', path: 'ok.txt', text: 'attempt 3', passed: true }]);
  });

  it('fails an invalid suite file with its validation message and no stack, and runs the valid ones', async ({
    expect,
  }) => {
    const unknownKey = { name: 'unknown', cases: [{ id: 'x', prompt: 'p', checks: [], bogus: 1 }] };
    const badRegex = {
      name: 'regex',
      cases: [{ id: 'y', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '(' }] }],
    };
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      {
        'bench/unknown.bench.json': unknownKey,
        'bench/regex.bench.json': badRegex,
        'bench/ok.bench.json': suite('ok', [replyDone]),
      },
    );
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir });
    const stdout = String(result.stdout);
    const stderr = String(result.stderr);
    expect(result.exitCode, output(result)).toBe(1);

    const unknownMessage = 'bench/unknown.bench.json: invalid suite at cases[0]: unknown key "bogus"';
    const regexMessage =
      'bench/regex.bench.json: invalid suite at cases[0].checks[0].pattern: invalid regular expression /(/';
    expect(stderr).toContain(unknownMessage);
    expect(stderr).toContain(regexMessage);
    // The user's file and its problem, not gz-bench's frames.
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toMatch(/❯ .*(node_modules|packages\/|dist\/)/);
    expect(stdout).toMatch(/Test Files\s+2 failed \| 1 passed \(3\)/);

    const report = await readReport(p.dir);
    expect(report.summary).toEqual({ total: 1, passed: 1, failed: 0 });
    expect(report.results.map((r) => [r.file, r.id, r.passed])).toEqual([['bench/ok.bench.json', 'reply-done', true]]);
    expect(report.errors).toEqual([
      { file: 'bench/regex.bench.json', message: regexMessage },
      { file: 'bench/unknown.bench.json', message: unknownMessage },
    ]);
    expect(stdout).toContain(`error: ${regexMessage}`);
    expect(stdout).toContain(`error: ${unknownMessage}`);
  });

  it('without any cmd, fails each case with how to set one', async ({ expect }) => {
    const p = await project({ report: REPORT }, { 'bench/a.bench.json': suite('alpha', [writeHello, replyDone]) });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir });
    expect(result.exitCode, output(result)).toBe(1);
    const how = 'no agent command: set `cmd` in gzBench({ cmd }) or the GZ_BENCH_CMD environment variable';
    expect(String(result.stderr)).toContain(how);
    const report = await readReport(p.dir);
    expect(report.summary).toEqual({ total: 2, passed: 0, failed: 2 });
    for (const row of report.results) {
      expect(row).toMatchObject({ passed: false, error: how, file: 'bench/a.bench.json', suite: 'alpha' });
      expect(row).not.toHaveProperty('agent');
    }
  });

  it('keep: true reports each case’s workspace, which is left in place', async ({ expect }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT, keep: true },
      { 'bench/a.bench.json': suite('alpha', [writeHello, replyDone]) },
    );
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir });
    const report = await readReport(p.dir);
    const workspaces = report.results.map((r) => r.workspace);
    for (const workspace of workspaces) if (workspace) cleanup.removeLater(workspace);
    expect(result.exitCode, output(result)).toBe(0);

    expect(workspaces).toHaveLength(2);
    expect(new Set(workspaces).size).toBe(2);
    for (const workspace of workspaces) {
      expect(workspace).toBeTypeOf('string');
      expect(existsSync(workspace as string)).toBe(true);
    }
    const hello = resultOf(report, 'write-hello').workspace as string;
    expect(await readFile(join(hello, 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(String(result.stdout)).toContain(`: ${hello}`);
  });

  describe('concurrency', () => {
    /** Three cases whose agent sleeps `ms` and records when it started and ended, in a file outside. */
    async function stampedRun(concurrency: number | undefined, ms: number) {
      const p = await project({ report: REPORT });
      const stamps = join(p.dir, 'stamps.txt');
      const cmd = await script(
        p,
        'agents/stamp.mjs',
        [
          "import { appendFileSync } from 'node:fs';",
          'const start = Date.now();',
          'await new Promise((resolve) => setTimeout(resolve, Number(process.argv[3])));',
          "appendFileSync(process.argv[2], start + ' ' + Date.now() + '\\n');",
          '',
        ].join('\n'),
        stamps,
        String(ms),
      );
      await p.write('vitest.config.ts', pluginConfig({ cmd, report: REPORT, ...(concurrency && { concurrency }) }));
      await p.write(
        'bench/slow.bench.json',
        suite(
          'slow',
          ['one', 'two', 'three'].map((id) => ({ id, prompt: id })),
        ),
      );
      const result = await runVitest(['run', 'bench/'], { cwd: p.dir });
      const intervals = (await readFile(stamps, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => line.split(' ').map(Number) as [number, number]);
      return { result, intervals, report: await readReport(p.dir) };
    }

    it('concurrency: 3 runs the cases of a suite at the same time', async ({ expect }) => {
      // 2 s each, so that one agent starting late on a busy machine still overlaps the others.
      const { result, intervals, report } = await stampedRun(3, 2000);
      expect(result.exitCode, output(result)).toBe(0);
      expect(report.summary).toEqual({ total: 3, passed: 3, failed: 0 });
      expect(intervals).toHaveLength(3);
      // All three were running at once: the last start comes before the first end.
      const lastStart = Math.max(...intervals.map(([start]) => start));
      const firstEnd = Math.min(...intervals.map(([, end]) => end));
      expect(lastStart).toBeLessThan(firstEnd);
    });
  });
});

describe.concurrent('GZ_BENCH_* environment overrides', () => {
  it('GZ_BENCH_CMD overrides cmd from the config', async ({ expect }) => {
    const p = await project(
      { cmd: 'node -e "process.exit(7)"', report: REPORT },
      { 'bench/a.bench.json': suite('alpha', [writeHello]) },
    );
    const configured = await runVitest(['run', 'bench/'], { cwd: p.dir });
    expect(configured.exitCode, output(configured)).toBe(1);
    expect(resultOf(await readReport(p.dir), 'write-hello').agent?.exitCode).toBe(7);

    const overridden = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { GZ_BENCH_CMD: SCRIPTED_CMD } });
    expect(overridden.exitCode, output(overridden)).toBe(0);
    const row = resultOf(await readReport(p.dir), 'write-hello');
    expect(row).toMatchObject({ passed: true, agent: { exitCode: 0 } });
    expect(row.agent?.outputTail).toContain('scripted agent: done');
  });

  it('GZ_BENCH_REPORT moves the report', async ({ expect }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      { 'bench/a.bench.json': suite('alpha', [replyDone]) },
    );
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { GZ_BENCH_REPORT: 'elsewhere/gz.json' } });
    expect(result.exitCode, output(result)).toBe(0);
    expect(existsSync(join(p.dir, REPORT))).toBe(false);
    const report = await readReport(p.dir, 'elsewhere/gz.json');
    expect(report.results.map((r) => [r.id, r.passed])).toEqual([['reply-done', true]]);
  });

  it('GZ_BENCH_TIMEOUT bounds every case', async ({ expect }) => {
    const sleeper = `node ${sh(agentPath('sleeper.mjs'))} 30`;
    const p = await project(
      { cmd: sleeper, report: REPORT },
      { 'bench/a.bench.json': suite('alpha', [{ id: 'sleepy', prompt: 'zzz', timeoutSec: 60 }]) },
    );
    const started = Date.now();
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { GZ_BENCH_TIMEOUT: '1' } });
    expect(result.exitCode, output(result)).toBe(1);
    expect(Date.now() - started).toBeLessThan(25_000);
    const row = resultOf(await readReport(p.dir), 'sleepy');
    expect(row).toMatchObject({
      passed: false,
      failedStep: 'agent',
      error: 'agent command timed out after 1s',
      agent: { timedOut: true },
    });
    expect(row.durationMs).toBeLessThan(10_000);
    expect(String(result.stderr)).toContain('CaseFailure: agent command timed out after 1s');
  });

  it('an invalid GZ_BENCH_TIMEOUT stops the run with a message that names it', async ({ expect }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      { 'bench/a.bench.json': suite('alpha', [replyDone]) },
    );
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { GZ_BENCH_TIMEOUT: 'abc' } });
    expect(result.exitCode, output(result)).not.toBe(0);
    expect(`${String(result.stdout)}${String(result.stderr)}`).toContain(
      'GZ_BENCH_TIMEOUT must be a number, got "abc"',
    );
    expect(existsSync(join(p.dir, REPORT))).toBe(false);
  });

  // STYLE.md: "A user never sees a stack trace for a bad suite or flag." Vitest prints the OptionsError
  // thrown while loading the config with its whole stack (resolve-options.js, plugin.js, vite's loader).
  it('an invalid GZ_BENCH_TIMEOUT shows no stack trace of gz-bench internals', async ({ expect }) => {
    const p = await project(
      { cmd: SCRIPTED_CMD, report: REPORT },
      { 'bench/a.bench.json': suite('alpha', [replyDone]) },
    );
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { GZ_BENCH_TIMEOUT: 'abc' } });
    expect(String(result.stderr)).toContain('GZ_BENCH_TIMEOUT');
    expect(String(result.stderr)).not.toMatch(/^\s+at .*vitest-plugin/m);
  });
});
