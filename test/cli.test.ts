import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { execa, type Result, type ResultPromise } from 'execa';
import { describe, type ExpectStatic, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath, CLI_BIN, REPO_ROOT } from './support/paths.js';
import { readPidFile, waitUntilEnded } from './support/processes.js';
import type { TempProject } from './support/project.js';
import { resultOf } from './support/report.js';
import { cleanEnv, runCli } from './support/run.js';
import { nodeCommand, sh } from './support/shell.js';
import { suite } from './support/suite.js';

// Several agents here write markers and pid files outside their workspace to prove what happened,
// which the bwrap sandbox (the default where it works) forbids; the sandbox has tests of its own.
const UNSANDBOXED = ['--sandbox', 'none'];

// End-to-end tests of the `gz-bench` bin: every test starts the real CLI, which drives a real Vitest
// over suites in a temp project and runs real agent processes (tiny node scripts in fixtures/agents).

/** Removed once the whole file is done: temp projects, and workspaces kept with --keep. */
const { project, removeLater } = cleanupAfterAll();

/** Runs a fake agent from fixtures/agents, as a shell command line. */
function agent(name: string, ...args: string[]): string {
  return nodeCommand(agentPath(name), ...args);
}

/**
 * An agent template whose "agent" is the prompt itself, run as a shell script: it lets each case of
 * one suite do something different under a single --cmd, as a scripted agent would.
 */
const SCRIPT_CMD = 'sh -c {{prompt}}';

/** The one line of a usage or validation error, as the CLI prints it (with the --help hint where there is one). */
const ONE_LINE_ERROR = /^gz-bench: [^\n]+(\nRun "gz-bench --help" for usage\.)?$/;

function expectUsageError(expect: ExpectStatic, result: Result, message: string): void {
  expect(result.exitCode).toBe(2);
  expect(result.stderr).toMatch(ONE_LINE_ERROR);
  expect(String(result.stderr).split('\n')[0]).toBe(`gz-bench: ${message}`);
  // A user never sees a stack trace for their own mistake.
  expect(result.stderr).not.toContain('    at ');
  // …and Vitest never started.
  expect(result.stdout).toBe('');
}

function parseReport(result: Result): Report {
  return JSON.parse(String(result.stdout)) as Report;
}

/** Runs `gz-bench run <suite.json> --cmd <cmd> --json …extra` on one suite in a fresh project. */
async function runSuite(spec: object, cmd: string, extra: string[] = []): Promise<{ result: Result; report: Report }> {
  const temp = await project({ 'suite.json': spec });
  const result = await runCli(['run', ...UNSANDBOXED, 'suite.json', '--cmd', cmd, '--json', ...extra], {
    cwd: temp.dir,
  });
  if (result.exitCode === 2 || result.stdout === '') {
    throw new Error(`gz-bench exited ${result.exitCode}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  return { result, report: parseReport(result) };
}

/** Memoises one CLI run that several tests assert on, so the file starts fewer Vitest processes. */
function shared<T>(run: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    promise ??= run();
    return promise;
  };
}

/** Rows of the table between its dashed rule and the blank line under it. */
function tableRows(stdout: string): string[] {
  const lines = stdout.split('\n');
  const rule = lines.findIndex((line) => /^-+( +-+){4}$/.test(line));
  if (rule < 0) throw new Error(`no table in:\n${stdout}`);
  const end = lines.indexOf('', rule);
  return lines.slice(rule + 1, end < 0 ? undefined : end);
}

/** Every file name below `dir`, recursively (relative paths). */
async function listTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

const VERSION = (
  JSON.parse(await readFile(join(REPO_ROOT, 'packages/vitest-plugin/package.json'), 'utf8')) as {
    version: string;
  }
).version;

const ONE_CASE = suite('one', [{ id: 'a', prompt: 'p' }]);

describe.concurrent('gz-bench CLI', () => {
  describe('commands and help', () => {
    it('--help prints usage on stdout and exits 0', async ({ expect }) => {
      const temp = await project();
      const result = await runCli(['--help'], { cwd: temp.dir });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Usage:');
      expect(result.stdout).toContain('gz-bench run <suite.json>');
      for (const placeholder of ['{{prompt}}', '{{promptFile}}', '{{dir}}'])
        expect(result.stdout).toContain(placeholder);
      expect(result.stdout).toContain('my-agent < {{promptFile}}');
      expect(result.stderr).toBe('');
    });

    it('says nothing and exits 0 when the reader of --help or --version stops early', async ({ expect }) => {
      const temp = await project();
      for (const args of ['--help', 'run --help', '--version']) {
        // `true` reads nothing: the write meets a closed pipe, which used to surface as an EPIPE stack trace.
        const result = await execa('bash', ['-c', `set -o pipefail; "$0" ${args} | true`, CLI_BIN], {
          cwd: temp.dir,
          env: cleanEnv(),
          extendEnv: false,
          reject: false,
          timeout: 60_000,
        });
        expect(result.stderr, args).toBe('');
        expect(result.exitCode, args).toBe(0);
      }
    });

    it('--version prints the version of the vitest-plugin package', async ({ expect }) => {
      const temp = await project();
      const result = await runCli(['--version'], { cwd: temp.dir });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(VERSION);
    });

    it('no arguments prints usage on stderr and exits 2', async ({ expect }) => {
      const temp = await project();
      const result = await runCli([], { cwd: temp.dir });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Usage:');
    });

    it('an unknown command exits 2', async ({ expect }) => {
      const temp = await project();
      const result = await runCli(['frobnicate'], { cwd: temp.dir });
      expectUsageError(expect, result, 'unknown command "frobnicate"');
      expect(result.stderr).not.toContain('Usage:');
    });
  });

  describe('strict flags: exit 2 with a one-line message', () => {
    const cases: Array<[name: string, args: string[], message: string]> = [
      ['an unknown flag', ['suite.json', '--cmd', 'echo', '--bogus'], "Unknown option '--bogus'"],
      ['a repeated --cmd', ['suite.json', '--cmd', 'echo a', '--cmd', 'echo b'], '--cmd was given more than once'],
      ['--cmd without a value', ['suite.json', '--cmd'], "Option '--cmd <value>' argument missing"],
      ['a missing --cmd', ['suite.json'], '--cmd or --agent is required'],
      [
        '--timeout abc',
        ['suite.json', '--cmd', 'echo', '--timeout', 'abc'],
        '--timeout must be a positive number of seconds up to 86400, got "abc"',
      ],
      [
        '--timeout 0',
        ['suite.json', '--cmd', 'echo', '--timeout', '0'],
        '--timeout must be a positive number of seconds up to 86400, got "0"',
      ],
      ['no suite file', ['--cmd', 'echo'], 'run needs at least one suite file'],
      [
        '--concurrency 0',
        ['suite.json', '--cmd', 'echo', '--concurrency', '0'],
        '--concurrency must be a positive integer, got "0"',
      ],
      [
        '--concurrency 1.5',
        ['suite.json', '--cmd', 'echo', '--concurrency', '1.5'],
        '--concurrency must be a positive integer, got "1.5"',
      ],
      [
        'an unknown placeholder {{promt}}',
        ['suite.json', '--cmd', 'my-agent {{promt}}'],
        'unknown placeholder {{promt}} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
      ],
    ];
    for (const [name, args, message] of cases) {
      it(`rejects ${name}`, async ({ expect }) => {
        const temp = await project({ 'suite.json': ONE_CASE });
        expectUsageError(expect, await runCli(['run', ...UNSANDBOXED, ...args], { cwd: temp.dir }), message);
      });
    }
  });

  describe('init', () => {
    it('writes example-suite.json whose cases all pass with --cmd "echo done"', async ({ expect }) => {
      const temp = await project();
      const init = await runCli(['init'], { cwd: temp.dir });
      expect(init.exitCode).toBe(0);
      expect(init.stdout).toContain('wrote example-suite.json');
      expect(init.stdout).toContain(`'my-agent < {{promptFile}}'`);
      const written = JSON.parse(await readFile(join(temp.dir, 'example-suite.json'), 'utf8')) as {
        name: string;
        cases: Array<{ id: string }>;
      };
      expect(written.cases.length).toBeGreaterThan(0);

      const run = await runCli(['run', ...UNSANDBOXED, 'example-suite.json', '--cmd', 'echo done'], { cwd: temp.dir });
      expect(run.exitCode).toBe(0);
      const rows = tableRows(String(run.stdout));
      expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(written.cases.map((c) => c.id));
      for (const row of rows) expect(row).toMatch(/^\S+\s+PASS\s+(\d+)\/\1\s+\d+ms$/);
      const n = written.cases.length;
      expect(run.stdout).toContain(`${n} cases: ${n} passed, 0 failed`);
    });

    it('refuses to overwrite an existing example-suite.json (exit 2)', async ({ expect }) => {
      const temp = await project();
      expect((await runCli(['init', 'out'], { cwd: temp.dir })).exitCode).toBe(0);
      const file = join(temp.dir, 'out', 'example-suite.json');
      await writeFile(file, 'my own edits\n');
      const again = await runCli(['init', 'out'], { cwd: temp.dir });
      expectUsageError(expect, again, 'out/example-suite.json already exists; remove it or choose another directory');
      expect(await readFile(file, 'utf8')).toBe('my own edits\n');
    });

    it('creates a new nested directory and writes a valid suite there', async ({ expect }) => {
      const temp = await project();
      const init = await runCli(['init', 'a/b/c'], { cwd: temp.dir });
      expect(init.exitCode).toBe(0);
      expect(init.stdout).toContain('wrote a/b/c/example-suite.json');
      const validate = await runCli(['validate', 'a/b/c/example-suite.json'], { cwd: temp.dir });
      expect(validate.exitCode).toBe(0);
      expect(validate.stdout).toMatch(/^a\/b\/c\/example-suite\.json: valid suite "example-suite" with \d+ cases$/);
    });
  });

  describe('validate', () => {
    it('accepts a valid suite: exit 0 with a message', async ({ expect }) => {
      const temp = await project({ 'ok.json': suite('fine', [{ id: 'a', prompt: 'p' }]) });
      const result = await runCli(['validate', 'ok.json'], { cwd: temp.dir });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('ok.json: valid suite "fine" with 1 case');
      expect(result.stderr).toBe('');
    });

    const invalid: Array<[name: string, content: string | object | undefined, message: string]> = [
      [
        'malformed JSON, with line and column',
        '{\n  "name": "x",\n  "cases": [,]\n}\n',
        's.json: invalid JSON at line 3, column 13: expected a value, found ","',
      ],
      ['a missing file', undefined, 'file not found: s.json'],
      [
        'an unknown key inside a check',
        suite('s', [{ id: 'a', prompt: 'p', checks: [{ kind: 'fileExists', path: 'x', extra: 1 }] }]),
        's.json: invalid suite at cases[0].checks[0]: unknown key "extra"',
      ],
      [
        'an invalid regular expression',
        suite('s', [{ id: 'a', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '(' }] }]),
        's.json: invalid suite at cases[0].checks[0].pattern: invalid regular expression /(/',
      ],
      [
        'duplicate case ids',
        suite('s', [
          { id: 'a', prompt: 'p' },
          { id: 'a', prompt: 'q' },
        ]),
        's.json: invalid suite at cases[1].id: duplicate case id "a"',
      ],
      [
        'an unknown check kind',
        suite('s', [{ id: 'a', prompt: 'p', checks: [{ kind: 'fileIsGreat', path: 'x' }] }]),
        's.json: invalid suite at cases[0].checks[0].kind: unknown check kind "fileIsGreat"; expected one of fileExists, fileContains, fileNotExists, command, outputMatches, agentExit, skillUsed',
      ],
      [
        'an empty prompt',
        suite('s', [{ id: 'a', prompt: '' }]),
        's.json: invalid suite at cases[0].prompt: must be a non-empty string',
      ],
      [
        'a timeout too large for a number, quoted as written',
        '{"name": "s", "cases": [{"id": "a", "prompt": "p", "checks": [], "timeoutSec": 1e400}]}',
        's.json: invalid suite at cases[0].timeoutSec: must be a finite number of seconds (got 1e400, which is too large)',
      ],
    ];
    for (const [name, content, message] of invalid) {
      it(`rejects ${name} with exit 2 and one exact line`, async ({ expect }) => {
        const temp = await project(content === undefined ? {} : { 's.json': content });
        const result = await runCli(['validate', 's.json'], { cwd: temp.dir });
        expectUsageError(expect, result, message);
        expect(result.stderr).toBe(`gz-bench: ${message}`);
      });
    }

    it('run with an invalid suite exits 2 with the message and never starts Vitest', async ({ expect }) => {
      const invalidSuite = suite('s', [{ id: 'a', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '(' }] }]);
      const temp = await project({ 's.json': invalidSuite });
      const marker = join(temp.dir, 'agent-ran');
      const result = await runCli(['run', ...UNSANDBOXED, 's.json', '--cmd', `touch ${sh(marker)}`], { cwd: temp.dir });
      expectUsageError(
        expect,
        result,
        's.json: invalid suite at cases[0].checks[0].pattern: invalid regular expression /(/',
      );
      expect(result.stderr).not.toMatch(/RUN|Test Files/);
      expect(existsSync(marker)).toBe(false);
    });
  });

  describe('run: exit codes and the table', () => {
    it('exits 0 when every case passes', async ({ expect }) => {
      const temp = await project({
        'suite.json': suite('s', [
          { id: 'write-hello', prompt: 'p', checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }] },
        ]),
      });
      const result = await runCli(['run', ...UNSANDBOXED, 'suite.json', '--cmd', 'echo hi > hello.txt'], {
        cwd: temp.dir,
      });
      expect(result.exitCode).toBe(0);
      expect(tableRows(String(result.stdout))).toEqual([expect.stringMatching(/^write-hello\s+PASS\s+1\/1\s+\d+ms$/)]);
      expect(result.stdout).toContain('1 case: 1 passed, 0 failed');
    });

    it('exits 1 when a case fails, with FAIL and the first failure in the table', async ({ expect }) => {
      const temp = await project({
        'suite.json': suite('s', [
          { id: 'write-hello', prompt: 'p', checks: [{ kind: 'fileExists', path: 'hello.txt' }] },
          { id: 'write-world', prompt: 'p', checks: [{ kind: 'fileExists', path: 'world.txt' }] },
        ]),
      });
      const result = await runCli(['run', ...UNSANDBOXED, 'suite.json', '--cmd', 'echo hi > hello.txt'], {
        cwd: temp.dir,
      });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(/^id\s{2,}result {2}checks {2}time\s{2,}first failure$/m);
      expect(tableRows(String(result.stdout))).toEqual([
        expect.stringMatching(/^write-hello\s+PASS\s+1\/1\s+\d+ms$/),
        expect.stringMatching(/^write-world\s+FAIL\s+0\/1\s+\d+ms\s+file does not exist: world\.txt$/),
      ]);
      expect(result.stdout).toContain('2 cases: 1 passed, 1 failed');
    });
    it('names the file where two suites share a name, in the progress lines and the table, aligned for wide ids', async ({
      expect,
    }) => {
      const cases = (failing: boolean) => [
        { id: 'x', prompt: 'p', checks: failing ? [{ kind: 'fileExists', path: 'missing.txt' }] : [] },
        { id: '写入文件', prompt: 'p' },
      ];
      const temp = await project({
        'a/suite.json': suite('same', cases(false)),
        'b/suite.json': suite('same', cases(true)),
      });
      const result = await runCli(['run', ...UNSANDBOXED, 'a/suite.json', 'b/suite.json', '--cmd', 'true'], {
        cwd: temp.dir,
      });
      expect(result.exitCode).toBe(1);
      const stdout = String(result.stdout);
      // Without the file, the rows would read `same > x` twice, once PASS and once FAIL.
      // Times vary, and so does the width of their column.
      const anyTime = (line: string) =>
        line.replace(/\d+(ms|\.\ds)( +(?=\S))?/, (_, _unit, gap) => (gap ? 'Nms  ' : 'Nms'));
      expect(tableRows(stdout).map(anyTime)).toEqual([
        'a/suite.json > same > x         PASS    0/0     Nms',
        'a/suite.json > same > 写入文件  PASS    0/0     Nms',
        'b/suite.json > same > x         FAIL    0/1     Nms  file does not exist: missing.txt',
        'b/suite.json > same > 写入文件  PASS    0/0     Nms',
      ]);
      const progress = stdout.split('\n').filter((line) => line.startsWith('gz-bench '));
      expect(progress.map(anyTime).sort()).toEqual([
        'gz-bench FAIL  b/suite.json > same > x  Nms  file does not exist: missing.txt',
        'gz-bench PASS  a/suite.json > same > x  Nms',
        'gz-bench PASS  a/suite.json > same > 写入文件  Nms',
        'gz-bench PASS  b/suite.json > same > 写入文件  Nms',
      ]);
    });
  });

  describe('--json', () => {
    const run = shared(() =>
      runSuite(
        suite('json-suite', [
          { id: 'good', prompt: 'p', checks: [{ kind: 'fileExists', path: 'hello.txt' }] },
          { id: 'bad', prompt: 'p', checks: [{ kind: 'fileExists', path: 'world.txt' }] },
        ]),
        'echo hi > hello.txt; echo agent-said-this',
      ),
    );

    it('prints exactly one JSON document on stdout, and still exits 1 on failure', async ({ expect }) => {
      const { result } = await run();
      expect(result.exitCode).toBe(1);
      expect(() => JSON.parse(String(result.stdout))).not.toThrow();
      // Vitest's own progress goes to stderr, never into the report.
      expect(result.stdout).not.toMatch(/Test Files|RUN|✓|×/);
      expect(result.stderr).toMatch(/Test Files/);
      // The agent's output is only inside the report's strings.
      expect(
        String(result.stdout)
          .split('\n')
          .filter((line) => line.includes('agent-said-this')),
      ).toHaveLength(2);
    });

    it('has a summary and results whose first keys are id, passed, durationMs, checkResults', async ({ expect }) => {
      const { report } = await run();
      expect(report.summary).toEqual({ total: 2, passed: 1, failed: 1 });
      expect(report.results).toHaveLength(2);
      for (const result of report.results) {
        expect(Object.keys(result).slice(0, 4)).toEqual(['id', 'passed', 'durationMs', 'checkResults']);
        expect(result.durationMs).toBeTypeOf('number');
      }
      expect(resultOf(report, 'good').passed).toBe(true);
      expect(resultOf(report, 'bad').passed).toBe(false);
    });

    it('reports each check with its kind, fields, passed, and a message on failure', async ({ expect }) => {
      const { report } = await run();
      expect(resultOf(report, 'good').checkResults).toEqual([{ kind: 'fileExists', path: 'hello.txt', passed: true }]);
      expect(resultOf(report, 'bad').checkResults).toEqual([
        { kind: 'fileExists', path: 'world.txt', passed: false, message: 'file does not exist: world.txt' },
      ]);
      expect(resultOf(report, 'bad').error).toBe('file does not exist: world.txt');
    });
  });

  describe('workspaces', () => {
    it('--keep prints each kept workspace, which holds what the agent wrote', async ({ expect }) => {
      const temp = await project({
        'suite.json': suite('keep', [
          { id: 'first', prompt: 'one', checks: [{ kind: 'fileExists', path: 'out.txt' }] },
          { id: 'second', prompt: 'two', checks: [{ kind: 'fileExists', path: 'out.txt' }] },
        ]),
      });
      const result = await runCli(
        ['run', ...UNSANDBOXED, 'suite.json', '--keep', '--cmd', 'printf %s {{prompt}} > out.txt'],
        {
          cwd: temp.dir,
        },
      );
      const kept = [...String(result.stdout).matchAll(/^kept workspace (\S+): (.+)$/gm)].map(
        ([, id, path]) => [id as string, path as string] as const,
      );
      for (const [, path] of kept) removeLater(path);
      expect(result.exitCode).toBe(0);
      expect(kept.map(([id]) => id)).toEqual(['first', 'second']);
      const [first, second] = kept.map(([, path]) => path);
      expect(first).not.toBe(second);
      for (const [path, content] of [
        [first, 'one'],
        [second, 'two'],
      ] as const) {
        expect(isAbsolute(path ?? '')).toBe(true);
        expect((await stat(path as string)).isDirectory()).toBe(true);
        expect(await readFile(join(path as string, 'out.txt'), 'utf8')).toBe(content);
      }
    });

    it('without --keep the workspace is gone after the run', async ({ expect }) => {
      const { result, report } = await runSuite(suite('gone', [{ id: 'pwd', prompt: 'p' }]), 'pwd; echo x > x.txt');
      expect(result.exitCode).toBe(0);
      const pwd = resultOf(report, 'pwd');
      expect(pwd.workspace).toBeUndefined();
      const workspace = pwd.agent?.outputTail.split('\n')[0] ?? '';
      expect(workspace.startsWith(tmpdir())).toBe(true);
      expect(existsSync(workspace)).toBe(false);
    });

    it('runs several suites from different directories in one run', async ({ expect }) => {
      const temp = await project({ 'a/one.json': suite('suite-one', [{ id: 'case-one', prompt: 'p' }]) });
      // The second suite lies outside the current directory altogether.
      const elsewhere = await project({
        'b/nested/two.json': suite('suite-two', [
          { id: 'case-two', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: 'hi' }] },
          { id: 'case-three', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: 'nope' }] },
        ]),
      });
      const two = join(elsewhere.dir, 'b/nested/two.json');
      const result = await runCli(['run', ...UNSANDBOXED, 'a/one.json', two, '--cmd', 'echo hi', '--json'], {
        cwd: temp.dir,
      });
      expect(result.exitCode).toBe(1);
      const report = parseReport(result);
      expect(report.summary).toEqual({ total: 3, passed: 2, failed: 1 });
      const rows = report.results.map(({ suite, file, id, passed }) => ({ suite, file, id, passed }));
      expect(rows.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
        { suite: 'suite-one', file: expect.stringMatching(/(^|\/)a\/one\.json$/), id: 'case-one', passed: true },
        { suite: 'suite-two', file: expect.stringMatching(/\/b\/nested\/two\.json$/), id: 'case-three', passed: false },
        { suite: 'suite-two', file: expect.stringMatching(/\/b\/nested\/two\.json$/), id: 'case-two', passed: true },
      ]);
    });
  });

  describe('placeholders and hostile prompts', () => {
    const HOSTILE = 'it\'s a "quoted" $(touch pwned) `touch pwned` ; touch pwned\nsecond line ! * $HOME {{dir}} \\';

    interface EchoRecord {
      argv: string[];
      prompt: string;
      dir: string;
      cwd: string;
    }

    /** Runs echo-args.mjs under `template`, keeping the workspace; returns what the agent recorded. */
    async function echoArgs(expect: ExpectStatic, template: string, prompt: string) {
      const temp = await project();
      const out = join(temp.dir, 'echo-args.json');
      const spec = suite('echo', [
        { id: 'echo', prompt, checks: [{ kind: 'outputMatches', pattern: '^args-ok$', flags: 'm' }] },
      ]);
      await temp.write('suite.json', spec);
      const result = await runCli(
        ['run', ...UNSANDBOXED, 'suite.json', '--json', '--keep', '--allow-env', 'ECHO_ARGS_OUT', '--cmd', template],
        { cwd: temp.dir, env: { ECHO_ARGS_OUT: out } },
      );
      const report = parseReport(result);
      const workspace = resultOf(report, 'echo').workspace as string;
      removeLater(workspace);
      expect(resultOf(report, 'echo').error).toBeUndefined();
      expect(result.exitCode).toBe(0);
      const record = JSON.parse(await readFile(out, 'utf8')) as EchoRecord;
      return { record, workspace, project: temp };
    }

    for (const form of ['{{prompt}}', '"{{prompt}}"', "'{{prompt}}'"]) {
      it(`${form} passes a hostile prompt as exactly one identical argument`, async ({ expect }) => {
        const {
          record,
          workspace,
          project: temp,
        } = await echoArgs(expect, `${agent('echo-args.mjs')} ${form}`, HOSTILE);
        expect(record.argv).toEqual([HOSTILE]);
        expect(record.prompt).toBe(HOSTILE);
        // Nothing in the prompt ran as shell code: not in the workspace, not where the CLI ran.
        expect((await listTree(workspace)).filter((name) => name.includes('pwned'))).toEqual([]);
        expect((await listTree(temp.dir)).filter((name) => name.includes('pwned'))).toEqual([]);
      });
    }

    it('{{prompt}} twice gives two identical arguments', async ({ expect }) => {
      const { record } = await echoArgs(expect, `${agent('echo-args.mjs')} {{prompt}} "{{prompt}}"`, HOSTILE);
      expect(record.argv).toEqual([HOSTILE, HOSTILE]);
    });

    it('{{dir}} is the absolute workspace path, the agent cwd and GZ_BENCH_DIR; GZ_BENCH_PROMPT is the prompt', async ({
      expect,
    }) => {
      const { record, workspace } = await echoArgs(
        expect,
        `${agent('echo-args.mjs')} --workdir {{dir}}`,
        'just a prompt',
      );
      expect(record.argv).toEqual(['--workdir', workspace]);
      expect(isAbsolute(workspace)).toBe(true);
      expect(record.cwd).toBe(workspace);
      expect(record.dir).toBe(workspace);
      expect(record.prompt).toBe('just a prompt');
    });
  });

  describe('timeouts', () => {
    it('a timed-out case fails, the run goes on, and the whole process tree is dead afterwards', async ({ expect }) => {
      const temp = await project();
      const pidFile = join(temp.dir, 'pids');
      // The agent's tree is three Node processes, which start one after another before the pids are
      // written: on a loaded 2-core machine that has taken over 1 s, so the timeout leaves them room.
      const { report } = await runSuite(
        suite('timeouts', [
          { id: 'hangs', prompt: agent('grandchildren.mjs', pidFile), timeoutSec: 5 },
          { id: 'next', prompt: 'echo next-ran', checks: [{ kind: 'outputMatches', pattern: 'next-ran' }] },
        ]),
        SCRIPT_CMD,
      );
      const hangs = resultOf(report, 'hangs');
      expect(hangs.passed).toBe(false);
      expect(hangs.error).toContain('timed out');
      expect(hangs.agent?.timedOut).toBe(true);
      expect(resultOf(report, 'next').passed).toBe(true);
      expect(report.summary).toEqual({ total: 2, passed: 1, failed: 1 });
      const pids = await readPidFile(pidFile);
      expect(pids).toHaveLength(2);
      expect(await waitUntilEnded(pids)).toEqual([]);
    });

    it('--timeout overrides a larger timeoutSec', async ({ expect }) => {
      const started = Date.now();
      const { result, report } = await runSuite(
        suite('override', [{ id: 'sleeps', prompt: 'p', timeoutSec: 300 }]),
        agent('sleeper.mjs', '600'),
        ['--timeout', '1'],
      );
      expect(result.exitCode).toBe(1);
      expect(resultOf(report, 'sleeps').error).toBe('agent command timed out after 1s');
      expect(Date.now() - started).toBeLessThan(30_000);
    });

    it('an agent that ignores SIGTERM is killed anyway', async ({ expect }) => {
      const temp = await project();
      const pidFile = join(temp.dir, 'stubborn.pid');
      // exec keeps the shell's pid, so the pid written is the stubborn agent's own; read from /proc,
      // which names it as this test sees it, where $$ would give its pid in the case's pid namespace.
      const writePid = `read -r pid rest < /proc/self/stat; echo "$pid" > ${sh(pidFile)}`;
      const { report } = await runSuite(
        // 3 s, so that Node has started and set its handler (and printed `ready`) before SIGTERM comes.
        suite('stubborn', [{ id: 'stubborn', prompt: `${writePid}; exec ${agent('stubborn.mjs')}`, timeoutSec: 3 }]),
        SCRIPT_CMD,
      );
      const stubborn = resultOf(report, 'stubborn');
      expect(stubborn.passed).toBe(false);
      expect(stubborn.error).toContain('timed out');
      // SIGTERM is ignored, so SIGKILL after the grace period ends it: the case is over within seconds.
      expect(stubborn.durationMs).toBeLessThan(10_000);
      expect(stubborn.agent?.outputTail).toContain('ready');
      expect(await waitUntilEnded(await readPidFile(pidFile))).toEqual([]);
    });

    it('an agent that exits leaving a background process neither hangs the case nor leaves it running', async ({
      expect,
    }) => {
      const temp = await project();
      const pidFile = join(temp.dir, 'background.pid');
      // The background sleep holds the output pipes open, as a forgotten dev server would. It writes its
      // own pid, as /proc names it (see the stubborn agent above), before the agent goes on.
      const background = `(read -r pid rest < /proc/self/stat; echo "$pid" > ${sh(pidFile)}; exec sleep 300) &`;
      const { report } = await runSuite(
        suite('background', [
          {
            id: 'leaves-sleep',
            prompt: `${background} while [ ! -s ${sh(pidFile)} ]; do sleep 0.01; done; echo agent-done`,
            checks: [{ kind: 'outputMatches', pattern: 'agent-done' }],
          },
        ]),
        SCRIPT_CMD,
      );
      const result = resultOf(report, 'leaves-sleep');
      expect(result.passed).toBe(true);
      expect(result.agent?.timedOut).toBe(false);
      expect(result.durationMs).toBeLessThan(10_000);
      expect(await waitUntilEnded(await readPidFile(pidFile))).toEqual([]);
    });
  });

  describe('interrupting the CLI (Ctrl-C)', () => {
    const run = shared(async () => {
      const temp = await project();
      const tmp = join(temp.dir, 'tmp');
      await mkdir(tmp);
      const pidFile = join(temp.dir, 'pids');
      await temp.write(
        'suite.json',
        suite('interrupted', [
          { id: 'hangs', prompt: agent('grandchildren.mjs', pidFile), timeoutSec: 120 },
          { id: 'never-reached', prompt: 'true' },
        ]),
      );
      // One case at a time, so that the second is still queued when the first is interrupted.
      // runCli hands back execa's subprocess; it is typed as a plain promise of its result.
      const cli = runCli(['run', ...UNSANDBOXED, '--concurrency', '1', 'suite.json', '--json', '--cmd', SCRIPT_CMD], {
        cwd: temp.dir,
        env: { TMPDIR: tmp },
      }) as ResultPromise;
      const deadline = Date.now() + 30_000;
      while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const interruptedAt = Date.now();
      cli.kill('SIGINT');
      const result = await cli;
      return { result, exitedAfterMs: Date.now() - interruptedAt, pids: await readPidFile(pidFile), tmp };
    });

    it('stops the run promptly with a nonzero exit and ends the agent tree', async ({ expect }) => {
      const { result, exitedAfterMs, pids } = await run();
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain('SIGINT received');
      expect(exitedAfterMs).toBeLessThan(10_000);
      expect(pids).toHaveLength(2);
      expect(await waitUntilEnded(pids)).toEqual([]);
    });

    it('leaves no temp directories behind', async ({ expect }) => {
      const { tmp } = await run();
      expect(await readdir(tmp)).toEqual([]);
    });

    it('exits 130 and still prints the report, with the interrupted case and the one never reached', async ({
      expect,
    }) => {
      const { result } = await run();
      expect(result.exitCode).toBe(130);
      const report = JSON.parse(String(result.stdout)) as Report;
      expect(report.results).toMatchObject([
        {
          id: 'hangs',
          passed: false,
          outcome: 'notRun',
          notRun: true,
          error: 'the case did not finish: the run was interrupted (agent command was interrupted)',
        },
        {
          id: 'never-reached',
          passed: false,
          notRun: true,
          error: 'the case did not finish: the run was cancelled first',
        },
      ]);
      expect(report.summary).toEqual({ total: 2, passed: 0, failed: 2, notRun: 2 });
    });
  });

  describe('setup', () => {
    it('the first nonzero setup exit fails the case; later setup and the agent never run', async ({ expect }) => {
      const temp = await project();
      const later = join(temp.dir, 'later-setup-ran');
      const agentRan = join(temp.dir, 'agent-ran');
      const { report } = await runSuite(
        suite('setup', [
          {
            id: 'setup-fails',
            prompt: `touch ${sh(agentRan)}`,
            setup: ['echo prepared > prepared.txt', 'exit 3', `touch ${sh(later)}`],
            checks: [{ kind: 'fileExists', path: 'prepared.txt' }],
          },
          { id: 'first-setup-fails', prompt: `touch ${sh(agentRan)}`, setup: ['exit 3', `touch ${sh(later)}`] },
        ]),
        SCRIPT_CMD,
      );
      expect(resultOf(report, 'first-setup-fails').error).toBe(`setup command 1 exited with 3: exit 3`);
      const failed = resultOf(report, 'setup-fails');
      expect(failed.passed).toBe(false);
      expect(failed.error).toBe('setup command 2 exited with 3: exit 3');
      expect(failed.failedStep).toBe('setup');
      expect(failed.agent).toBeUndefined();
      expect(failed.checkResults).toEqual([{ kind: 'fileExists', path: 'prepared.txt', passed: false, skipped: true }]);
      expect(existsSync(later)).toBe(false);
      expect(existsSync(agentRan)).toBe(false);
    });
  });

  describe('checks', () => {
    // One suite, one Vitest run: each case scripts its own "agent" through SCRIPT_CMD.
    let markers: TempProject | undefined;
    const run = shared(async () => {
      markers = await project();
      const marker = (name: string) => sh(join((markers as TempProject).dir, name));
      return runSuite(
        suite('checks', [
          {
            id: 'stops-at-first-failure',
            prompt: 'echo hi > a.txt',
            checks: [
              { kind: 'fileExists', path: 'a.txt' },
              { kind: 'fileExists', path: 'missing.txt' },
              { kind: 'command', run: `touch ${marker('later-check-ran')}` },
              { kind: 'outputMatches', pattern: 'never' },
            ],
          },
          {
            id: 'command-default-exit',
            prompt: 'true',
            checks: [{ kind: 'command', run: 'echo from-check; test 1 = 1' }],
          },
          { id: 'command-default-exit-fails', prompt: 'true', checks: [{ kind: 'command', run: 'exit 1' }] },
          {
            id: 'command-expect-3',
            prompt: 'true',
            checks: [{ kind: 'command', run: 'exit 3', expectExit: 3 }],
          },
          {
            id: 'command-expect-3-fails',
            prompt: 'true',
            checks: [{ kind: 'command', run: 'exit 0', expectExit: 3 }],
          },
          {
            id: 'output-flags-i',
            prompt: 'echo Hello World',
            checks: [{ kind: 'outputMatches', pattern: '^hello world$', flags: 'im' }],
          },
          {
            id: 'output-case-sensitive',
            prompt: 'echo Hello World',
            checks: [{ kind: 'outputMatches', pattern: 'hello world' }],
          },
          {
            id: 'contains-flags-i',
            prompt: 'echo "Install It" > README.md',
            checks: [{ kind: 'fileContains', path: 'README.md', text: 'install it', flags: 'i' }],
          },
          {
            id: 'contains-case-sensitive',
            prompt: 'echo "Install It" > README.md',
            checks: [{ kind: 'fileContains', path: 'README.md', text: 'install it' }],
          },
          {
            id: 'symlink-out',
            prompt: agent('write-outside.mjs'),
            checks: [{ kind: 'fileContains', path: 'link-out', text: 'root' }],
          },
          { id: 'parent-path', prompt: 'true', checks: [{ kind: 'fileExists', path: '../x' }] },
          { id: 'absolute-path', prompt: 'true', checks: [{ kind: 'fileExists', path: '/etc/passwd' }] },
          {
            id: 'agent-exit-7',
            prompt: 'echo done-anyway; exit 7',
            checks: [{ kind: 'outputMatches', pattern: 'done-anyway' }],
          },
          { id: 'no-checks', prompt: 'exit 1' },
        ]),
        SCRIPT_CMD,
      );
    });

    it('stop at the first failure: later checks are skipped and never run', async ({ expect }) => {
      const { report } = await run();
      const result = resultOf(report, 'stops-at-first-failure');
      expect(result.passed).toBe(false);
      expect(result.error).toBe('file does not exist: missing.txt');
      expect(result.checkResults.map(({ passed, skipped }) => ({ passed, skipped }))).toEqual([
        { passed: true, skipped: undefined },
        { passed: false, skipped: undefined },
        { passed: false, skipped: true },
        { passed: false, skipped: true },
      ]);
      expect(result.checkResults[2]).not.toHaveProperty('exitCode');
      expect(existsSync(join((markers as TempProject).dir, 'later-check-ran'))).toBe(false);
    });

    it('command: expectExit defaults to 0', async ({ expect }) => {
      const { report } = await run();
      const passed = resultOf(report, 'command-default-exit');
      expect(passed.passed).toBe(true);
      expect(passed.checkResults[0]).toMatchObject({ passed: true, exitCode: 0, outputTail: 'from-check\n' });
      const failed = resultOf(report, 'command-default-exit-fails');
      expect(failed.passed).toBe(false);
      expect(failed.error).toBe('command exited with 1, expected 0 (no output): exit 1');
    });

    it('command: expectExit 3', async ({ expect }) => {
      const { report } = await run();
      expect(resultOf(report, 'command-expect-3').passed).toBe(true);
      expect(resultOf(report, 'command-expect-3').checkResults[0]).toMatchObject({ exitCode: 3, passed: true });
      expect(resultOf(report, 'command-expect-3-fails').error).toBe(
        'command exited with 0, expected 3 (no output): exit 0',
      );
    });

    it('outputMatches honours flags', async ({ expect }) => {
      const { report } = await run();
      expect(resultOf(report, 'output-flags-i').passed).toBe(true);
      expect(resultOf(report, 'output-case-sensitive').error).toBe('output does not match /hello world/');
    });

    it('fileContains with flags "i" is case-insensitive', async ({ expect }) => {
      const { report } = await run();
      expect(resultOf(report, 'contains-flags-i').passed).toBe(true);
      expect(resultOf(report, 'contains-case-sensitive').error).toBe('file does not contain "install it": README.md');
    });

    it('paths that escape the workspace fail with clear messages', async ({ expect }) => {
      const { report } = await run();
      const symlink = resultOf(report, 'symlink-out');
      expect(symlink.agent?.outputTail).toContain('link-out: done');
      expect(symlink.passed).toBe(false);
      expect(symlink.error).toBe('path leads outside the workspace through a symlink: link-out');
      expect(resultOf(report, 'parent-path').error).toBe('path leaves the workspace: ../x');
      expect(resultOf(report, 'absolute-path').error).toBe('path must be relative to the workspace: /etc/passwd');
    });

    it("records the agent's exit code without asserting it", async ({ expect }) => {
      const { report } = await run();
      const result = resultOf(report, 'agent-exit-7');
      expect(result.passed).toBe(true);
      expect(result.agent?.exitCode).toBe(7);
    });

    it('a case with zero checks passes vacuously', async ({ expect }) => {
      const { report } = await run();
      const result = resultOf(report, 'no-checks');
      expect(result).toMatchObject({ passed: true, checkResults: [] });
      expect(result.agent?.exitCode).toBe(1);
    });
  });

  describe('agent output', () => {
    const run = shared(() =>
      runSuite(
        suite('output', [
          {
            id: 'flood',
            prompt: agent('flood.mjs', '50'),
            checks: [
              { kind: 'outputMatches', pattern: '^FLOOD-START$', flags: 'm' },
              { kind: 'outputMatches', pattern: '^FLOOD-END$', flags: 'm' },
            ],
          },
          { id: 'binary', prompt: agent('binary-output.mjs'), checks: [{ kind: 'outputMatches', pattern: 'BIN-OK' }] },
        ]),
        SCRIPT_CMD,
      ),
    );

    it('50 MiB of output: checks still see its start and end, the report stays small', async ({ expect }) => {
      const { result, report } = await run();
      const flood = resultOf(report, 'flood');
      expect(flood.passed).toBe(true);
      expect(flood.agent?.outputBytes).toBe(50 * 1024 * 1024);
      expect(flood.agent?.outputDroppedBytes).toBeGreaterThan(0);
      expect(String(result.stdout).length).toBeLessThan(1024 * 1024);
    });

    it('invalid UTF-8 output still matches and shows as U+FFFD', async ({ expect }) => {
      const { report } = await run();
      const binary = resultOf(report, 'binary');
      expect(binary.passed).toBe(true);
      expect(binary.agent?.outputTail).toContain('\uFFFD');
      expect(binary.agent?.outputTail).toMatch(/^BIN-OK<\uFFFD+\(>BIN-OK\n$/);
    });
  });

  describe('edge cases', () => {
    it('runs a suite file whatever its extension', async ({ expect }) => {
      const temp = await project({
        'suite.txt': suite('txt', [{ id: 'a', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: 'never' }] }]),
      });
      expect((await runCli(['validate', 'suite.txt'], { cwd: temp.dir })).exitCode).toBe(0);
      const result = await runCli(['run', ...UNSANDBOXED, 'suite.txt', '--cmd', 'echo hi', '--json'], {
        cwd: temp.dir,
      });
      expect(result.exitCode).toBe(1);
      expect(JSON.parse(String(result.stdout)).summary).toEqual({ total: 1, passed: 0, failed: 1 });
    });

    it('rejects a --timeout beyond a day, which timers cannot wait', async ({ expect }) => {
      const temp = await project({ 'suite.json': suite('t', [{ id: 'a', prompt: 'p' }]) });
      const result = await runCli(['run', ...UNSANDBOXED, 'suite.json', '--cmd', 'true', '--timeout', '999999999'], {
        cwd: temp.dir,
      });
      expect(result.exitCode).toBe(2);
      expect(String(result.stderr).split('\n')[0]).toBe(
        'gz-bench: --timeout must be a positive number of seconds up to 86400, got "999999999"',
      );
    });

    it('a timeout of a day does not fail the case at once', async ({ expect }) => {
      const { report } = await runSuite(
        suite('long-timeout', [
          {
            id: 'a',
            prompt: 'p',
            timeoutSec: 86_400,
            setup: Array.from({ length: 30 }, () => 'true'),
            checks: [{ kind: 'outputMatches', pattern: 'hi' }],
          },
        ]),
        'sleep 0.2; echo hi',
      );
      expect(resultOf(report, 'a')).toMatchObject({ passed: true });
    });

    // `$(…)` and backticks open quoting contexts of their own inside double quotes.
    for (const inner of ['"{{prompt}}"', "'{{prompt}}'", '{{prompt}}']) {
      it(`${inner} inside "$(…)" still passes the prompt as one argument`, async ({ expect }) => {
        const { report } = await runSuite(
          suite('nested', [{ id: 'a', prompt: 'two  spaces * star' }]),
          `printf '[%s]' "$(printf '%s' ${inner})"`,
        );
        expect(resultOf(report, 'a').agent?.outputTail).toBe('[two  spaces * star]');
      });
    }
  });
});
