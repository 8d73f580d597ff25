import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { probeSandbox, type Report, type ReportResult } from '@gz-bench/core';
import { describe, type ExpectStatic, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import type { TempProject } from './support/project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';
import { suite } from './support/suite.js';

// The whole output of every command goes to a log file beside the report, and the report points at
// it: an agent that prints more than the report's 4000-character tail, and more than the 2 MiB the
// harness keeps in memory, has all of it in its log, whatever its case id.

const { project } = cleanupAfterAll();
const MiB = 1024 * 1024;
const SANDBOX_WORKS = (await probeSandbox()).available;

/** Case ids that must not lead a log anywhere but its own directory, nor share one. */
const HOSTILE_IDS = ['../../x', 'a/b', 'a_b', 'héllo-世界-🙂', 'x'.repeat(300)];

/** The flood agent prints as many MiB as the prompt says, from `FLOOD-START` to `FLOOD-END`. */
const FLOOD_CMD = `${nodeCommand(agentPath('flood.mjs'))} {{prompt}}`;

function floodSuite(mebibytes: number): object {
  return suite(
    'logged',
    HOSTILE_IDS.map((id) => ({
      id,
      prompt: String(mebibytes),
      setup: ['echo setting up'],
      checks: [
        { kind: 'outputMatches', pattern: 'FLOOD-END' },
        { kind: 'command', run: 'echo checked; echo on stderr >&2' },
      ],
    })),
  );
}

/** A temp project with the suite and a private TMPDIR, which the run must leave empty. */
async function floodProject(files: Record<string, string | object> = {}): Promise<TempProject> {
  const created = await project({ 'bench/logged.bench.json': floodSuite(3), ...files });
  await mkdir(join(created.dir, 'tmp'));
  return created;
}

/** Checks each result's logs: inside `logsDir`, one directory per case, holding the whole output. */
async function expectWholeLogs(
  expect: ExpectStatic,
  dir: string,
  results: ReportResult[],
  logsDir: string,
  mebibytes: number,
): Promise<void> {
  expect(results.map((result) => result.id)).toEqual(HOSTILE_IDS);
  const caseDirs = new Set<string>();
  for (const result of results) {
    expect(result.passed).toBe(true);
    const agentLog = result.agent?.log ?? '';
    // Relative to the project, inside the logs directory, with nothing of the id that climbs out.
    expect(isAbsolute(agentLog)).toBe(false);
    expect(normalize(agentLog)).toBe(agentLog);
    expect(agentLog.startsWith(`${logsDir}/`)).toBe(true);
    expect(agentLog.split('/')).toHaveLength(logsDir.split('/').length + 3);
    expect(agentLog.endsWith('/agent.log')).toBe(true);
    const caseDir = agentLog.slice(0, -'/agent.log'.length);
    caseDirs.add(caseDir);
    const logged = await readFile(join(dir, agentLog));
    expect(logged.length).toBe(mebibytes * MiB);
    expect(result.agent?.outputBytes).toBe(mebibytes * MiB);
    // Far more than the report's tail, and (beyond 2 MiB) than the capture in memory.
    expect(result.agent?.outputTail.length).toBe(4000);
    expect(result.agent?.outputDroppedBytes).toBe(Math.max(0, mebibytes * MiB - 2 * MiB));
    expect(logged.subarray(0, 12).toString()).toBe('FLOOD-START\n');
    expect(logged.subarray(-10).toString()).toBe('FLOOD-END\n');
    expect(result.setupLogs).toEqual([`${caseDir}/setup-1.log`]);
    expect(await readFile(join(dir, caseDir, 'setup-1.log'), 'utf8')).toBe('setting up\n');
    expect(result.checkResults[1]?.log).toBe(`${caseDir}/check-2.log`);
    expect(await readFile(join(dir, caseDir, 'check-2.log'), 'utf8')).toBe('checked\non stderr\n');
    expect((await readdir(join(dir, caseDir))).sort()).toEqual([
      'agent.log',
      'changes.diff',
      'check-2.log',
      'setup-1.log',
    ]);
  }
  expect(caseDirs.size).toBe(HOSTILE_IDS.length);
  // Nothing of a case id made a directory anywhere else.
  expect(existsSync(join(dir, 'x'))).toBe(false);
  expect(existsSync(join(dir, logsDir, 'a'))).toBe(false);
}

describe.concurrent('full output logs', () => {
  it('gz-bench run --logs DIR writes them, the report points at them, and a run replaces its own', async ({
    expect,
  }) => {
    const created = await floodProject();
    const env = { TMPDIR: join(created.dir, 'tmp') };
    const args = ['run', 'bench/logged.bench.json', '--cmd', FLOOD_CMD, '--logs', 'out/logs', '--json'];
    const first = await runCli([...args, '--sandbox', 'none'], { cwd: created.dir, env, timeoutMs: 120_000 });
    expect(first.stderr).not.toContain('    at ');
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const report = JSON.parse(String(first.stdout)) as Report;
    await expectWholeLogs(expect, created.dir, report.results, 'out/logs', 3);
    expect(await readdir(join(created.dir, 'tmp'))).toEqual([]);

    // A second run with less output replaces each log; a file of the user's there stays.
    const kept = join(created.dir, 'out/logs/notes.txt');
    await created.write('out/logs/notes.txt', 'mine\n');
    await created.write('bench/logged.bench.json', floodSuite(1));
    const second = await runCli([...args, '--sandbox', SANDBOX_WORKS ? 'bwrap' : 'none'], {
      cwd: created.dir,
      env,
      timeoutMs: 120_000,
    });
    expect(second.exitCode, String(second.stderr)).toBe(0);
    const again = JSON.parse(String(second.stdout)) as Report;
    await expectWholeLogs(expect, created.dir, again.results, 'out/logs', 1);
    expect(again.results.map((result) => result.agent?.log)).toEqual(report.results.map((result) => result.agent?.log));
    expect(await readFile(kept, 'utf8')).toBe('mine\n');
    expect(await readdir(join(created.dir, 'tmp'))).toEqual([]);
  });

  it('gz-bench run writes no logs without --logs', async ({ expect }) => {
    const created = await floodProject({ 'bench/logged.bench.json': floodSuite(0) });
    const result = await runCli(['run', 'bench/logged.bench.json', '--cmd', FLOOD_CMD, '--json', '--sandbox', 'none'], {
      cwd: created.dir,
      env: { TMPDIR: join(created.dir, 'tmp') },
    });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.results.map((row) => row.agent?.log ?? 'none')).toEqual(HOSTILE_IDS.map(() => 'none'));
    expect(report.results[0]?.setupLogs).toBeUndefined();
    expect((await readdir(created.dir)).sort()).toEqual(['bench', 'node_modules', 'tmp']);
  });

  it('vitest run writes them beside the report by default, in the sandbox where it works', async ({ expect }) => {
    const created = await floodProject(
      pluginProjectFiles({ cmd: FLOOD_CMD, sandbox: SANDBOX_WORKS ? 'bwrap' : 'none' }),
    );
    const result = await runVitest(['run'], {
      cwd: created.dir,
      env: { TMPDIR: join(created.dir, 'tmp') },
      timeoutMs: 120_000,
    });
    expect(result.exitCode, String(result.stdout)).toBe(0);
    const report = await readReport(created.dir, '.gz-bench/report.json');
    await expectWholeLogs(expect, created.dir, report.results, '.gz-bench/logs', 3);
    expect(report.results[0]?.sandbox).toBe(SANDBOX_WORKS ? 'bwrap' : 'none');
    expect(await readdir(join(created.dir, 'tmp'))).toEqual([]);
  });

  it('vitest run writes none with logs: false, nor with GZ_BENCH_LOGS=false', async ({ expect }) => {
    const created = await floodProject({
      'bench/logged.bench.json': floodSuite(0),
      ...pluginProjectFiles({ cmd: FLOOD_CMD, logs: 'custom/logs' }),
    });
    const result = await runVitest(['run'], {
      cwd: created.dir,
      env: { TMPDIR: join(created.dir, 'tmp'), GZ_BENCH_LOGS: 'false' },
    });
    expect(result.exitCode).toBe(0);
    const report = await readReport(created.dir, '.gz-bench/report.json');
    expect(report.results.every((row) => row.agent !== undefined && row.agent.log === undefined)).toBe(true);
    expect(existsSync(join(created.dir, 'custom'))).toBe(false);
    expect(existsSync(join(created.dir, '.gz-bench/logs'))).toBe(false);
    expect((await stat(join(created.dir, '.gz-bench/report.json'))).isFile()).toBe(true);
  });
});
