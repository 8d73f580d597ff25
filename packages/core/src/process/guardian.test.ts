import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { removeTree } from '../workspace/remove-tree.js';
import { GUARDIAN_NAME } from './guardian.js';
import { encodeMessage } from './guardian-protocol.js';
import { GUARDIAN_SCRIPT } from './guardian-script.js';
import { compileForChild } from './test-support/child-modules.js';
import { isRunning, killStrays } from './test-support/processes.js';

const linux = process.platform === 'linux';

let modules: Awaited<ReturnType<typeof compileForChild>>;
let parent: string;
const strays: number[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  modules = await compileForChild([
    'process/guardian.ts',
    'process/guardian-script.ts',
    'process/guardian-protocol.ts',
    'process/exit-cleanup.ts',
    'process/kill-tree.ts',
    'process/sweep.ts',
    'process/proc-stat.ts',
    'process/proc-read.ts',
    'workspace/case-area.ts',
    'workspace/owned-dirs.ts',
    'workspace/owner-record.ts',
    'workspace/area-files.ts',
    'workspace/remove-tree.ts',
  ]);
  // A harness: one case area, an agent in a process group of its own (tracked, as runProcess does),
  // a daemon that left that group (caught by the token), optionally a kept area, a process to die
  // with, and a busy event loop. It reports everything, then waits to be killed.
  await writeFile(
    join(modules.dir, 'harness.mjs'),
    `import { spawn } from 'node:child_process';
import { dieWith } from './process/guardian.js';
import { trackProcessGroup } from './process/exit-cleanup.js';
import { CASE_TOKEN_ENV } from './process/sweep.js';
import { createCaseArea, releaseCaseArea } from './workspace/case-area.js';
const [parent, mode, watch] = process.argv.slice(2);
const area = await createCaseArea({ parent });
const kept = await createCaseArea({ parent });
await releaseCaseArea(kept);
const env = { [CASE_TOKEN_ENV]: area.token, PATH: process.env.PATH };
const forever = ['-e', 'setInterval(() => {}, 1 << 30);'];
const agent = spawn(process.execPath, forever, { env, detached: true, stdio: 'ignore' });
trackProcessGroup(agent.pid);
const daemon = spawn(process.execPath, forever, { env, detached: true, stdio: 'ignore' });
if (watch !== undefined) dieWith(Number(watch));
// Time for the guardian to start and read what it was told.
await new Promise((resolve) => setTimeout(resolve, 500));
process.stdout.write(JSON.stringify({ root: area.root, kept: kept.root, agent: agent.pid, daemon: daemon.pid }) + '\\n');
if (mode === 'busy') for (;;) {}
setInterval(() => {}, 1 << 30);
`,
  );
});

afterAll(() => modules?.dispose());

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-guardian-test-')));
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  killStrays(strays);
  await removeTree(parent);
});

interface Harness {
  child: ChildProcess;
  root: string;
  kept: string;
  agent: number;
  daemon: number;
  guardian: number;
}

async function startHarness(mode: 'idle' | 'busy', watch?: number): Promise<Harness> {
  const args = [join(modules.dir, 'harness.mjs'), parent, mode, ...(watch === undefined ? [] : [String(watch)])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const report = JSON.parse(line) as Omit<Harness, 'child' | 'guardian'>;
  strays.push(report.agent, report.daemon);
  const guardians = childrenOf(child.pid as number).filter((pid) => commandLine(pid).includes(GUARDIAN_NAME));
  expect(guardians).toHaveLength(1);
  strays.push(...guardians);
  return { child, ...report, guardian: guardians[0] as number };
}

/** Waits until `done` holds, for at most `timeoutMs`; returns whether it did. */
async function eventually(done: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await delay(50);
  }
  return true;
}

function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

describe.runIf(linux)('the guardian of a harness process', () => {
  it('kills the agent and the daemon and removes the area when the harness is SIGKILLed, then exits', async () => {
    const harness = await startHarness('idle');
    expect([harness.agent, harness.daemon, harness.guardian].every(isRunning)).toBe(true);
    harness.child.kill('SIGKILL');
    expect(await eventually(() => !isRunning(harness.agent) && !isRunning(harness.daemon))).toBe(true);
    expect(await eventually(() => !existsSync(harness.root))).toBe(true);
    expect(await eventually(() => !isRunning(harness.guardian))).toBe(true);
    // What was released for the user stays.
    expect(existsSync(join(harness.kept, 'workspace'))).toBe(true);
  }, 20_000);

  it('kills the harness, busy or not, and cleans up once a process it must die with is gone', async () => {
    const main = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30);'], { stdio: 'ignore' });
    children.push(main);
    const harness = await startHarness('busy', main.pid as number);
    main.kill('SIGKILL');
    const exit = (await once(harness.child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect(exit[1]).toBe('SIGKILL');
    expect(await eventually(() => !isRunning(harness.agent) && !isRunning(harness.daemon))).toBe(true);
    expect(await eventually(() => !existsSync(harness.root))).toBe(true);
    expect(await eventually(() => !isRunning(harness.guardian))).toBe(true);
    expect(existsSync(join(harness.kept, 'workspace'))).toBe(true);
  }, 20_000);

  it('leaves with the harness when it exits normally, having nothing left to do', async () => {
    const harness = await startHarness('idle');
    harness.child.kill('SIGTERM');
    await once(harness.child, 'exit');
    // The harness's own exit handlers did the work; the guardian just goes.
    expect(await eventually(() => !isRunning(harness.guardian))).toBe(true);
    expect(existsSync(harness.root)).toBe(false);
    expect(isRunning(harness.agent)).toBe(false);
  }, 20_000);
});

/** What the guardian script, in its print mode, would do with these lines once its stdin closes. */
function dryRun(lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', GUARDIAN_SCRIPT, GUARDIAN_NAME, 'print'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(output.split('\n').filter(Boolean)));
    child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  });
}

describe('the guardian protocol', () => {
  const token = 'a'.repeat(32);

  it('encodes every message as the line the guardian reads, and nothing it would refuse', () => {
    expect(encodeMessage({ op: 'add', kind: 'group', value: 1234 })).toBe('add group 1234\n');
    expect(encodeMessage({ op: 'remove', kind: 'token', value: token })).toBe(`remove token ${token}\n`);
    expect(encodeMessage({ op: 'add', kind: 'dir', value: '/tmp/a b' })).toBe('add dir /tmp/a b\n');
    expect(encodeMessage({ op: 'watch', pid: 42 })).toBe('watch 42\n');
    expect(encodeMessage({ op: 'add', kind: 'group', value: 1 })).toBeUndefined();
    expect(encodeMessage({ op: 'add', kind: 'token', value: 'abc' })).toBeUndefined();
    expect(encodeMessage({ op: 'add', kind: 'dir', value: '/tmp/line\nbreak' })).toBeUndefined();
    expect(encodeMessage({ op: 'watch', pid: 0 })).toBeUndefined();
  });

  it('kills, sweeps and removes what is still guarded when stdin closes, and nothing released', async () => {
    const other = 'b'.repeat(32);
    expect(
      await dryRun([
        'add group 1234',
        'add group 555',
        'add group 555',
        'remove group 1234',
        `add token ${token}`,
        `add token ${other}`,
        `remove token ${token}`,
        'add dir /tmp/gz-bench-1-2-AbC123',
        'add dir /tmp/with space/a*b',
        'add dir /tmp/released',
        'remove dir /tmp/released',
      ]),
    ).toEqual(['kill 555', `sweep ${other}`, 'remove /tmp/gz-bench-1-2-AbC123', 'remove /tmp/with space/a*b']);
  });

  it('refuses what could make it kill or remove more than it was given', async () => {
    expect(
      await dryRun([
        'add group 1',
        'add group 0',
        'add group -5',
        'add group 0123',
        'add group 12345678901',
        'add group 12a',
        'add token abc',
        `add token ${'A'.repeat(32)}`,
        'add dir relative',
        'add dir /',
        'add dir',
        'watch 1',
        'kill group 1234',
        'not a message',
        '',
      ]),
    ).toEqual([]);
  });
});
