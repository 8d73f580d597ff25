import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { execa, type Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { runCli } from './support/run.js';
import { suite } from './support/suite.js';

// Suite files that are not plain files, or whose names Vite reads as something else: `gz-bench run`
// either runs them like any other suite or refuses them up front with one line and exit 2. It never
// validates them and then crashes, or reports zero cases.

const { project } = cleanupAfterAll();

const ONE_CASE = suite('one', [{ id: 'a', prompt: 'p' }]);

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

function expectRefused(expect: import('vitest').ExpectStatic, result: Result, line: string): void {
  expect(result.exitCode, output(result)).toBe(2);
  expect(result.stderr).toBe(`gz-bench: ${line}`);
  expect(result.stdout).toBe('');
}

describe.concurrent('gz-bench run on suite paths that are not plain names', () => {
  // Names Vite serves as they are: all of them in one run, each its own suite with a passing case.
  const ODD_NAMES = [
    'hash#name.json',
    'with space.json',
    'bra[ck]ets.json',
    'st*r.json',
    'dollar$HOME.json',
    `quo'te"s.json`,
    'new\nline.json',
    'ünïcödé-写入-😀.json',
    'per%41cent.json',
    'sub dir/#[x] $y.json',
  ];

  it('runs suites whose names hold #, spaces, [, *, $, quotes, a newline or unicode', async ({ expect }) => {
    const files = Object.fromEntries(
      ODD_NAMES.map((name, index) => [name, suite(`suite-${index}`, [{ id: `case-${index}`, prompt: 'p' }])]),
    );
    const p = await project(files);
    const result = await runCli(['run', '--sandbox', 'none', ...ODD_NAMES, '--cmd', 'true', '--json'], { cwd: p.dir });
    expect(result.exitCode, output(result)).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.summary).toEqual({ total: ODD_NAMES.length, passed: ODD_NAMES.length, failed: 0 });
    expect(report.results.map((row) => row.file).sort()).toEqual([...ODD_NAMES].sort());
  });

  it('refuses a name with "?", which Vite reads as a query, in one line', async ({ expect }) => {
    const p = await project({ 'q?.json': ONE_CASE });
    const result = await runCli(['run', 'q?.json', '--cmd', 'true', '--json'], { cwd: p.dir });
    expectRefused(
      expect,
      result,
      'cannot run suite file "q?.json": Vite cannot load a path that contains "?"; rename the file or move it',
    );
  });

  it('refuses a directory with "?" in the path, and a backslash in the name', async ({ expect }) => {
    const p = await project({ 'what?/s.json': ONE_CASE, 'back\\slash.json': ONE_CASE });
    expectRefused(
      expect,
      await runCli(['run', 'what?/s.json', '--cmd', 'true'], { cwd: p.dir }),
      'cannot run suite file "what?/s.json": Vite cannot load a path that contains "?"; rename the file or move it',
    );
    expectRefused(
      expect,
      await runCli(['run', 'back\\slash.json', '--cmd', 'true'], { cwd: p.dir }),
      'cannot run suite file "back\\\\slash.json": Vite cannot load a path that contains "\\"; rename the file or move it',
    );
  });

  /** Runs the CLI with `suite.json` piped into its stdin by the shell, as `cat suite.json | gz-bench …` does. */
  const PIPED = ['sh', '-c', 'cat suite.json | exec "$@"', 'sh'];

  it('refuses a pipe (/dev/stdin), which validation would have read already', async ({ expect }) => {
    const p = await project({ 'suite.json': ONE_CASE });
    const result = await runCli(['run', '/dev/stdin', '--cmd', 'true', '--json'], { cwd: p.dir, via: PIPED });
    expectRefused(
      expect,
      result,
      'cannot run suite file "/dev/stdin": it is a pipe, not a regular file; save the suite to a file and run that',
    );
  });

  it('validate still reads a suite from a pipe, which it reads once', async ({ expect }) => {
    const p = await project({ 'suite.json': ONE_CASE });
    const result = await runCli(['validate', '/dev/stdin'], { cwd: p.dir, via: PIPED });
    expect(result.exitCode, output(result)).toBe(0);
    expect(result.stdout).toBe('/dev/stdin: valid suite "one" with 1 case');
  });

  it('refuses a socket on stdin too', async ({ expect }) => {
    // Node hands a child's piped stdin over as a socket pair.
    const p = await project();
    const result = await runCli(['run', '/dev/stdin', '--cmd', 'true'], {
      cwd: p.dir,
      input: JSON.stringify(ONE_CASE),
    });
    expectRefused(
      expect,
      result,
      'cannot run suite file "/dev/stdin": it is a socket, not a regular file; save the suite to a file and run that',
    );
  });

  it('refuses a FIFO without opening it (nothing writes to it, so a read would hang)', async ({ expect }) => {
    const p = await project();
    await execa('mkfifo', [join(p.dir, 'suite.fifo')]);
    expectRefused(
      expect,
      await runCli(['run', 'suite.fifo', '--cmd', 'true'], { cwd: p.dir, timeoutMs: 20_000 }),
      'cannot run suite file "suite.fifo": it is a pipe, not a regular file; save the suite to a file and run that',
    );
  });

  it('refuses /dev/null, a device', async ({ expect }) => {
    const p = await project();
    expectRefused(
      expect,
      await runCli(['run', '/dev/null', '--cmd', 'true'], { cwd: p.dir }),
      'cannot run suite file "/dev/null": it is a device, not a regular file; save the suite to a file and run that',
    );
  });

  it('refuses a directory with the loader’s message', async ({ expect }) => {
    const p = await project();
    await mkdir(join(p.dir, 'bench'));
    expectRefused(
      expect,
      await runCli(['run', 'bench', '--cmd', 'true'], { cwd: p.dir }),
      'cannot read suite file bench: it is a directory with no task in it; name a .json suite file, a task directory (task.toml, task.yaml) or a directory of them',
    );
  });
});
