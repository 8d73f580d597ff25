import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { execa, type Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { REPO_ROOT } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { inPrivateTmpfs, privateTmpfsUnavailable } from './support/private-mount.js';
import type { TempProject } from './support/project.js';
import { resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { suite } from './support/suite.js';

// Faults of the machine, not of the suite: a TMPDIR that is missing, not a directory, read-only or
// full. Before the run they stop it with one line and exit 1 (with --json, nothing on stdout); during
// the run, a case whose area cannot be created fails as a harness fault with the reason, and the run
// goes on. Read-only and full file systems are tmpfs mounts in a private mount namespace (root only).

const { project } = cleanupAfterAll();

const ONE_CASE = suite('env', [{ id: 'a', prompt: 'p' }]);
const FIX = 'point TMPDIR at a writable directory';

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** `gz-bench run suite.json --json` in a fresh project, with TMPDIR set to what `tmp` returns. */
async function runWithTmp(
  tmp: (p: TempProject) => Promise<string>,
  via?: string[] | ((tmpDir: string) => string[]),
): Promise<{ result: Result; tmpDir: string }> {
  const p = await project({ 'suite.json': ONE_CASE });
  const tmpDir = await tmp(p);
  const prefix = typeof via === 'function' ? via(tmpDir) : via;
  const result = await runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', 'true', '--json'], {
    cwd: p.dir,
    env: { TMPDIR: tmpDir },
    ...(prefix && { via: prefix }),
  });
  return { result, tmpDir };
}

function expectOneLine(expect: import('vitest').ExpectStatic, result: Result, line: string): void {
  expect(result.exitCode, output(result)).toBe(1);
  expect(result.stderr).toBe(`gz-bench: ${line}`);
  // With --json, stdout carries a report or nothing: the run never started, so nothing.
  expect(result.stdout).toBe('');
}

describe.concurrent('gz-bench run with an unusable TMPDIR', () => {
  it('missing: one line, exit 1, nothing on stdout', async ({ expect }) => {
    const { result, tmpDir } = await runWithTmp(async (p) => join(p.dir, 'no-such-dir'));
    expectOneLine(expect, result, `the temp directory ${tmpDir} (TMPDIR) does not exist; create it or ${FIX}`);
  });

  it('not a directory', async ({ expect }) => {
    const { result, tmpDir } = await runWithTmp((p) => p.write('a-file', 'x'));
    expectOneLine(expect, result, `the temp directory ${tmpDir} (TMPDIR) is not a directory; ${FIX}`);
  });

  it('read-only to an ordinary user (nobody; root ignores mode bits)', async ({ expect }) => {
    const { result, tmpDir } = await runWithTmp(
      async (p) => {
        // nobody must be able to read the project and the suite, but not write the temp dir.
        await chmod(p.dir, 0o755);
        const dir = join(p.dir, 'read-only');
        await mkdir(dir, { mode: 0o555 });
        await chmod(dir, 0o555);
        return dir;
      },
      ['runuser', '-u', 'nobody', '--'],
    );
    expectOneLine(expect, result, `the temp directory ${tmpDir} (TMPDIR) is not writable by this user; ${FIX}`);
  });

  it.skipIf(privateTmpfsUnavailable)('on a read-only file system', async ({ expect }) => {
    const { result, tmpDir } = await runWithTmp(
      async (p) => {
        const dir = join(p.dir, 'ro-mount');
        await mkdir(dir);
        return dir;
      },
      (dir) => inPrivateTmpfs(dir, { sizeKiB: 256, readOnly: true }),
    );
    expectOneLine(expect, result, `the temp directory ${tmpDir} (TMPDIR) is on a read-only file system; ${FIX}`);
  });

  it.skipIf(privateTmpfsUnavailable)('full (ENOSPC)', async ({ expect }) => {
    const { result, tmpDir } = await runWithTmp(
      async (p) => {
        const dir = join(p.dir, 'full-mount');
        await mkdir(dir);
        return dir;
      },
      (dir) => inPrivateTmpfs(dir, { sizeKiB: 256, full: true }),
    );
    expectOneLine(
      expect,
      result,
      `the temp directory ${tmpDir} (TMPDIR) is full (ENOSPC); free some space or ${FIX} with room`,
    );
  });

  it('gone mid-run: the cases after it fail as harness faults with the reason, and the run goes on', async ({
    expect,
  }) => {
    const p = await project({
      'suite.json': suite('vanishing-tmp', [
        // The first case's agent removes the whole temp dir, its own case area with it.
        { id: 'removes-tmpdir', prompt: 'rm -rf "$OUTER_TMP"' },
        { id: 'second', prompt: 'true', checks: [{ kind: 'fileExists', path: 'x' }] },
        { id: 'third', prompt: 'true' },
      ]),
    });
    const tmp = join(p.dir, 'tmp');
    await mkdir(tmp);
    const result = await runCli(
      // One case at a time, so that the others start after the first has removed the temp dir.
      [
        'run',
        '--sandbox',
        'none',
        '--concurrency',
        '1',
        'suite.json',
        '--allow-env',
        'OUTER_TMP',
        '--cmd',
        'sh -c {{prompt}}',
        '--json',
      ],
      { cwd: p.dir, env: { TMPDIR: tmp, OUTER_TMP: tmp } },
    );
    expect(result.exitCode, output(result)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.summary).toEqual({ total: 3, passed: 0, failed: 3 });
    expect(resultOf(report, 'removes-tmpdir').error).toBe('the agent removed the case area');
    const reason = `could not create the case area: the temp directory ${tmp} (TMPDIR) does not exist; create it or ${FIX}`;
    expect(resultOf(report, 'second')).toMatchObject({
      passed: false,
      failedStep: 'harness',
      error: reason,
      checkResults: [{ kind: 'fileExists', path: 'x', passed: false, skipped: true }],
    });
    expect(resultOf(report, 'third')).toMatchObject({ passed: false, failedStep: 'harness', error: reason });
    expect(String(result.stderr)).not.toMatch(/^\s+at /m);
  });
});

describe.concurrent('vitest run with the plugin and an unusable TMPDIR', () => {
  const REPORT = 'out/report.json';

  async function vitestWithTmp(tmp: (p: TempProject) => Promise<string>, via?: (tmpDir: string) => string[]) {
    const p = await project({ ...pluginProjectFiles({ cmd: 'true', report: REPORT }), 'bench/a.bench.json': ONE_CASE });
    const tmpDir = await tmp(p);
    const result = await runVitest(['run', 'bench/'], {
      cwd: p.dir,
      env: { TMPDIR: tmpDir },
      ...(via && { via: via(tmpDir) }),
    });
    return { result, tmpDir, reportWritten: existsSync(join(p.dir, REPORT)) };
  }

  function expectMessageOnly(expect: import('vitest').ExpectStatic, result: Result, line: string): void {
    expect(result.exitCode, output(result)).toBe(1);
    const all = `${String(result.stdout)}\n${String(result.stderr)}`;
    expect(all).toContain(`EnvironmentError: gz-bench: ${line}`);
    // The message, not gz-bench's (or Vitest's) frames.
    expect(all).not.toMatch(/^\s+at /m);
  }

  it('missing: Vitest stops with the message alone and no report', async ({ expect }) => {
    const { result, tmpDir, reportWritten } = await vitestWithTmp(async (p) => join(p.dir, 'no-such-dir'));
    expectMessageOnly(expect, result, `the temp directory ${tmpDir} (TMPDIR) does not exist; create it or ${FIX}`);
    expect(reportWritten).toBe(false);
    // Vitest would create the missing directory for its own files; the run stopped before it did.
    expect(existsSync(tmpDir)).toBe(false);
  });

  it.skipIf(privateTmpfsUnavailable)('full (ENOSPC): the message alone', async ({ expect }) => {
    const { result, tmpDir } = await vitestWithTmp(
      async (p) => {
        const dir = join(p.dir, 'full-mount');
        await mkdir(dir);
        return dir;
      },
      (dir) => inPrivateTmpfs(dir, { sizeKiB: 256, full: true }),
    );
    expectMessageOnly(
      expect,
      result,
      `the temp directory ${tmpDir} (TMPDIR) is full (ENOSPC); free some space or ${FIX} with room`,
    );
  });
});

describe('a case whose area cannot be created', () => {
  it.skipIf(privateTmpfsUnavailable)('fails as a harness fault that says the temp dir is full', async ({ expect }) => {
    const p = await project();
    const dir = join(p.dir, 'full-mount');
    await mkdir(dir);
    // runCase itself (the built engine) under a full tmpfs: the case's area is the first thing it needs.
    const script = `
      const { runCase } = await import(${JSON.stringify(join(REPO_ROOT, 'packages/core/dist/index.js'))});
      const result = await runCase(
        { id: 'a', prompt: 'p', checks: [{ kind: 'fileExists', path: 'x' }] },
        { cmd: 'true', tmpDir: process.argv[2] },
      );
      const { readdirSync } = await import('node:fs');
      process.stdout.write(JSON.stringify({ result, left: readdirSync(process.argv[2]) }));`;
    await writeFile(join(p.dir, 'run-case.mjs'), script);
    const [file = '', ...args] = inPrivateTmpfs(dir, { sizeKiB: 256, full: true });
    const run = await execa(file, [...args, process.execPath, join(p.dir, 'run-case.mjs'), dir], { reject: false });
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const { result, left } = JSON.parse(String(run.stdout));
    expect(result).toMatchObject({
      id: 'a',
      passed: false,
      failedStep: 'harness',
      error: `could not create the case area: the temp directory ${dir} is full (ENOSPC); free some space or ${FIX} with room`,
      checkResults: [{ kind: 'fileExists', path: 'x', passed: false, skipped: true }],
    });
    // Nothing of the half-made area stays behind: only the file that filled the disk.
    expect(left).toEqual(['fill']);
    expect(await readdir(dir)).toEqual([]);
  });
});
