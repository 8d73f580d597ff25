import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CaseLogs } from './case-logs.js';
import { caseLogLocation } from './log-paths.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-case-logs-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function location(caseId = 'c') {
  return caseLogLocation({ logsDir: join(root, '.gz-bench/logs'), root, suiteFile: 's.bench.json', caseId });
}

async function writeLog(logs: CaseLogs, name: 'agent' | `setup-${number}` | `check-${number}`, text: string) {
  const { stream, display } = await logs.open(name);
  stream.end(text);
  await finished(stream);
  return display;
}

describe('CaseLogs', () => {
  it('writes each command log as a file of the case directory, named for the report', async () => {
    const logs = await CaseLogs.prepare(location());
    const display = await writeLog(logs, 'agent', 'all of it\n');
    expect(display).toBe('.gz-bench/logs/s.bench.json/c/agent.log');
    expect(await readFile(join(root, display), 'utf8')).toBe('all of it\n');
    expect((await lstat(join(root, display))).mode & 0o777).toBe(0o644);
  });

  it('replaces the logs of an earlier run of the case, and removes nothing else', async () => {
    const dir = location().dir;
    await mkdir(join(dir, 'agent-a', 'trial-1'), { recursive: true });
    await writeFile(join(dir, 'agent.log'), 'old agent\n');
    await writeFile(join(dir, 'setup-3.log'), 'old setup 3\n');
    await writeFile(join(dir, 'check-2.log'), 'old check\n');
    await writeFile(join(dir, 'trajectory.json'), '{"old":true}\n');
    await writeFile(join(dir, 'notes.txt'), 'mine\n');
    await writeFile(join(dir, 'agent.log.bak'), 'mine too\n');
    await writeFile(join(dir, 'agent-a', 'trial-1', 'agent.log'), 'another run\n');

    const logs = await CaseLogs.prepare(location());
    await writeLog(logs, 'agent', 'new agent\n');

    expect((await readdir(dir)).sort()).toEqual(['agent-a', 'agent.log', 'agent.log.bak', 'notes.txt']);
    expect(await readFile(join(dir, 'agent.log'), 'utf8')).toBe('new agent\n');
    expect(await readFile(join(dir, 'agent-a', 'trial-1', 'agent.log'), 'utf8')).toBe('another run\n');
  });

  it('writes the trial’s trajectory.json as a new file, never through a link planted there', async () => {
    const target = join(root, 'victim.txt');
    await writeFile(target, 'precious\n');
    const logs = await CaseLogs.prepare(location());
    await symlink(target, join(location().dir, 'trajectory.json'));

    const display = await logs.writeFile('trajectory.json', '{}\n');

    expect(display).toBe('.gz-bench/logs/s.bench.json/c/trajectory.json');
    expect(await readFile(target, 'utf8')).toBe('precious\n');
    expect((await lstat(join(root, display))).isFile()).toBe(true);
    expect(await readFile(join(root, display), 'utf8')).toBe('{}\n');
  });

  it('never writes through a link planted where a log goes', async () => {
    const target = join(root, 'victim.txt');
    await writeFile(target, 'precious\n');
    const logs = await CaseLogs.prepare(location());
    await symlink(target, join(location().dir, 'agent.log'));

    await writeLog(logs, 'agent', 'agent output\n');

    expect(await readFile(target, 'utf8')).toBe('precious\n');
    expect((await lstat(join(location().dir, 'agent.log'))).isFile()).toBe(true);
    expect(await readFile(join(location().dir, 'agent.log'), 'utf8')).toBe('agent output\n');
  });

  it('fails with the file system error when the directory cannot be made', async () => {
    await mkdir(join(root, '.gz-bench'));
    await writeFile(join(root, '.gz-bench/logs'), 'a file where the directory goes');
    await expect(CaseLogs.prepare(location())).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(existsSync(join(root, '.gz-bench/logs/s.bench.json'))).toBe(false);
  });
});
