import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caseLogLocation } from '../logs/log-paths.js';
import { agent } from '../process/test-support/processes.js';
import type { Case } from '../suite/schema.js';
import { runCase } from './run-case.js';

const MiB = 1024 * 1024;
let root: string;
let tmp: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-case-logs-')));
  tmp = join(root, 'tmp');
  await mkdir(tmp);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function logsOf(caseId: string) {
  return caseLogLocation({ logsDir: join(root, '.gz-bench/logs'), root, suiteFile: 'suite.bench.json', caseId });
}

const flooding: Case = {
  id: 'floods',
  prompt: 'print a lot',
  setup: ['echo first setup', 'echo second setup >&2'],
  checks: [
    { kind: 'command', run: `${agent('flood', '3')} | tail -c 10` },
    { kind: 'outputMatches', pattern: 'FLOOD-END' },
    { kind: 'fileExists', path: 'nothing-here' },
    { kind: 'command', run: 'echo never runs' },
  ],
};

describe('runCase: logs', { timeout: 60_000 }, () => {
  it('logs the whole output of every command beside the report, outside the case area, and points the result at each', async () => {
    const result = await runCase(flooding, { cmd: agent('flood', '3'), tmpDir: tmp, logs: logsOf('floods') });

    const dir = '.gz-bench/logs/suite.bench.json/floods';
    expect(result.setupLogs).toEqual([`${dir}/setup-1.log`, `${dir}/setup-2.log`]);
    expect(result.agent?.log).toBe(`${dir}/agent.log`);
    expect(result.checkResults.map((check) => check.log)).toEqual([
      `${dir}/check-1.log`,
      undefined,
      undefined,
      undefined,
    ]);
    expect(result.warnings).toBeUndefined();
    // The report keeps 4000 characters and memory 2 MiB; the log all 3 MiB.
    const agentLog = await readFile(join(root, `${dir}/agent.log`));
    expect(agentLog.length).toBe(3 * MiB);
    expect(result.agent?.outputBytes).toBe(3 * MiB);
    expect(result.agent?.outputDroppedBytes).toBeGreaterThan(0);
    expect(agentLog.subarray(0, 12).toString()).toBe('FLOOD-START\n');
    expect(agentLog.subarray(-10).toString()).toBe('FLOOD-END\n');
    expect(await readFile(join(root, `${dir}/setup-1.log`), 'utf8')).toBe('first setup\n');
    expect(await readFile(join(root, `${dir}/setup-2.log`), 'utf8')).toBe('second setup\n');
    expect(await readFile(join(root, `${dir}/check-1.log`), 'utf8')).toBe('FLOOD-END\n');
    expect(existsSync(join(root, `${dir}/check-4.log`))).toBe(false);
    // The case area is gone; its logs are not.
    expect(await readdir(tmp)).toEqual([]);
  });

  it('bounds the agent log by maxOutputMB', async () => {
    const result = await runCase(
      { id: 'capped', prompt: 'p', maxOutputMB: 1, checks: [] },
      { cmd: agent('flood', '20'), tmpDir: tmp, logs: logsOf('capped') },
    );
    expect(result.failedStep).toBe('agent');
    expect(result.error).toBe('agent command exceeded the output limit of 1 MiB');
    expect((await stat(join(root, result.agent?.log ?? 'missing'))).size).toBe(MiB);
  });

  it('runs the case on with a warning when its logs cannot be written', async () => {
    // A file where the logs directory goes: unwritable for root too.
    await writeFile(join(root, '.gz-bench'), 'not a directory');
    const result = await runCase(
      { id: 'no-logs', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: 'hi' }] },
      { cmd: 'echo hi', tmpDir: tmp, logs: logsOf('no-logs') },
    );
    expect(result.passed).toBe(true);
    expect(result.agent?.log).toBeUndefined();
    expect(result.warnings).toEqual([
      'the logs of this case could not be written to .gz-bench/logs/suite.bench.json/no-logs (ENOTDIR)',
    ]);
  });

  it('writes no logs and names none without a log location', async () => {
    const result = await runCase(
      { id: 'plain', prompt: 'p', setup: ['true'], checks: [] },
      { cmd: 'echo hi', tmpDir: tmp },
    );
    expect(result.agent?.log).toBeUndefined();
    expect(result.setupLogs).toBeUndefined();
    expect(existsSync(join(root, '.gz-bench'))).toBe(false);
  });
});
