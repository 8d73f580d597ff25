import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clockTicksNow } from './proc-stat.js';
import {
  CASE_TOKEN_ENV,
  environHas,
  isCaseToken,
  killByToken,
  killByTokenSync,
  killByTokens,
  newCaseToken,
  parseStat,
} from './sweep.js';
import { compileForChild } from './test-support/child-modules.js';
import { agent, isRunning, killStrays, pathOnlyEnv, runIn, runningPids } from './test-support/processes.js';

const SLEEP_FOREVER = 'setInterval(() => {}, 1 << 30);';
const linux = process.platform === 'linux';

/** An independent scan: running pids whose environment has exactly NAME=token. */
function carriersOf(token: string): number[] {
  return runningPids((pid) =>
    readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${CASE_TOKEN_ENV}=${token}`),
  );
}

let dir: string;
const tokens: string[] = [];
const strays: number[] = [];
const children: ChildProcess[] = [];

function token(): string {
  const value = newCaseToken();
  tokens.push(value);
  return value;
}

/** A detached sleeper with exactly `env`, recorded for cleanup. */
function startSleeper(env: Record<string, string>): number {
  const child = spawn(process.execPath, ['-e', SLEEP_FOREVER], { env, detached: true, stdio: 'ignore' });
  children.push(child);
  strays.push(child.pid as number);
  return child.pid as number;
}

function runAgent(command: string, caseToken: string) {
  return runIn(dir, command, { env: pathOnlyEnv({ [CASE_TOKEN_ENV]: caseToken }) });
}

async function readPid(file: string): Promise<number> {
  const pid = Number((await readFile(file, 'utf8')).trim());
  strays.push(pid);
  return pid;
}

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gzb-sweep-test-')));
});

afterEach(async () => {
  // Only what this file started: recorded pids, then anything still carrying one of its tokens.
  killStrays(strays);
  for (const child of children.splice(0)) child.unref();
  for (const value of tokens.splice(0)) await killByToken(value);
  await rm(dir, { recursive: true, force: true });
});

describe('newCaseToken', () => {
  it('makes distinct 128-bit hex tokens that isCaseToken accepts', () => {
    const a = newCaseToken();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(newCaseToken());
    expect(isCaseToken(a)).toBe(true);
    for (const bad of ['', 'abc', `${a}0`, a.toUpperCase(), 42, undefined]) expect(isCaseToken(bad)).toBe(false);
  });
});

describe('environHas', () => {
  const needle = Buffer.from('T=abc');
  it.each([
    ['T=abc', true],
    ['A=1\0T=abc\0B=2\0', true],
    ['A=1\0T=abc', true],
    ['A=1\0T=abcd\0', false],
    ['A=1\0XT=abc\0', false],
    ['A=T=abc\0', false],
    ['XT=abc\0T=abc\0', true],
    ['', false],
  ])('%j → %s', (environ, expected) => {
    expect(environHas(Buffer.from(environ), needle)).toBe(expected);
  });
});

describe('parseStat', () => {
  it('reads state, parent, group and start time after a comm holding spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, index) => String(index + 3));
    fields[0] = 'S';
    fields[1] = '77';
    fields[2] = '88';
    fields[19] = '123456';
    expect(parseStat(`42 (a) b (c) ${fields.join(' ')}`)).toEqual({
      state: 'S',
      parentPid: 77,
      groupId: 88,
      startTime: 123456,
    });
  });

  it('agrees with /proc/self/stat', () => {
    if (!linux) return;
    expect(parseStat(readFileSync('/proc/self/stat', 'utf8'))).toMatchObject({ state: 'R', parentPid: process.ppid });
  });
});

describe.runIf(linux)('killByToken', () => {
  it('kills a setsid daemon that survives the process-group kill', async () => {
    const caseToken = token();
    const pidFile = join(dir, 'daemon.pid');
    const result = await runAgent(agent('setsid-daemon', pidFile), caseToken);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    const daemon = await readPid(pidFile);
    // runProcess has SIGKILLed the agent's group by now; the daemon left it and lives on.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(daemon)).toBe(true);
    expect(carriersOf(caseToken)).toEqual([daemon]);

    expect(await killByToken(caseToken)).toEqual([daemon]);
    expect(isRunning(daemon)).toBe(false);
    expect(carriersOf(caseToken)).toEqual([]);
  });

  it('kills a double-forked, reparented grandchild', async () => {
    const caseToken = token();
    const pidFile = join(dir, 'grandchild.pid');
    const result = await runAgent(agent('double-fork', pidFile), caseToken);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    const grandchild = await readPid(pidFile);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(grandchild)).toBe(true);
    // Its parent exited, so it was reparented away from the agent's tree.
    const stat = parseStat(readFileSync(`/proc/${grandchild}/stat`, 'utf8'));
    expect(stat?.parentPid).not.toBe(process.pid);

    expect(await killByToken(caseToken)).toEqual([grandchild]);
    expect(isRunning(grandchild)).toBe(false);
  });

  it('counts a zombie as dead instead of waiting for it to be reaped', async () => {
    const caseToken = token();
    // Only the background sleep carries the token; its parent (the shell, then `sleep 1000` in its
    // place) never reaps it, so once killed it stays a zombie for as long as that parent lives.
    const child = spawn('/bin/sh', ['-c', `${CASE_TOKEN_ENV}=${caseToken} sleep 1000 & echo $!; exec sleep 1000`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(child);
    strays.push(child.pid as number);
    const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const carrier = Number(chunk.toString().trim());
    strays.push(carrier);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(carriersOf(caseToken)).toEqual([carrier]);

    const started = Date.now();
    expect(await killByToken(caseToken, { timeoutMs: 10_000 })).toEqual([carrier]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(parseStat(readFileSync(`/proc/${carrier}/stat`, 'utf8'))?.state).toBe('Z');
  });

  it('leaves processes with another token, a longer token, a look-alike name or no token alone', async () => {
    const caseToken = token();
    const otherToken = token();
    const target = startSleeper({ [CASE_TOKEN_ENV]: caseToken });
    const bystanders = [
      startSleeper({ [CASE_TOKEN_ENV]: otherToken }),
      startSleeper({ [CASE_TOKEN_ENV]: `${caseToken}0` }),
      startSleeper({ [`X${CASE_TOKEN_ENV}`]: caseToken }),
      startSleeper({ OTHER: `${CASE_TOKEN_ENV}=${caseToken}x` }),
      startSleeper({}),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(await killByToken(caseToken)).toEqual([target]);
    expect(isRunning(target)).toBe(false);
    for (const pid of bystanders) expect(isRunning(pid)).toBe(true);
    expect(await killByToken(otherToken)).toEqual([bystanders[0]]);
  });

  it('keeps sweeping while carriers fork new detached processes', async () => {
    const caseToken = token();
    const child = spawn('/bin/sh', ['-c', 'while :; do setsid sleep 1000 & sleep 0.01; done'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [CASE_TOKEN_ENV]: caseToken },
      detached: true,
      stdio: 'ignore',
    });
    children.push(child);
    strays.push(child.pid as number);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(carriersOf(caseToken).length).toBeGreaterThan(5);

    const killed = await killByToken(caseToken);
    expect(killed).toContain(child.pid);
    expect(carriersOf(caseToken)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(carriersOf(caseToken)).toEqual([]);
  });

  it('skips processes that started before `startedAfter` without looking further', async () => {
    const caseToken = token();
    const before = clockTicksNow() as number;
    const target = startSleeper({ [CASE_TOKEN_ENV]: caseToken });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A bound past its start: the carrier counts as older than the case, and is spared.
    expect(await killByToken(caseToken, { startedAfter: before + 60 * 100 })).toEqual([]);
    expect(isRunning(target)).toBe(true);
    expect(await killByToken(caseToken, { startedAfter: before })).toEqual([target]);
    expect(isRunning(target)).toBe(false);
  });

  it('kills the carriers of several tokens, and only theirs, in one sweep', async () => {
    const [first, second, other] = [token(), token(), token()];
    const targets = [startSleeper({ [CASE_TOKEN_ENV]: first }), startSleeper({ [CASE_TOKEN_ENV]: second })];
    const bystander = startSleeper({ [CASE_TOKEN_ENV]: other });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await killByTokens([first, second])).toEqual([...targets].sort((a, b) => a - b));
    expect(isRunning(bystander)).toBe(true);
    expect(killByTokenSync([other])).toEqual([bystander]);
  });

  it('returns [] when nothing carries the token, and refuses a malformed token', async () => {
    expect(await killByToken(token())).toEqual([]);
    await expect(killByToken('')).rejects.toThrow(TypeError);
    expect(() => killByTokenSync('abc')).toThrow(TypeError);
  });

  it('has a synchronous twin for exit handlers', () => {
    const caseToken = token();
    const target = startSleeper({ [CASE_TOKEN_ENV]: caseToken });
    const bystander = startSleeper({ [CASE_TOKEN_ENV]: token() });
    // Wait (synchronously) until the sleeper has exec'd node and carries its environment.
    const until = Date.now() + 2000;
    while (!carriersOf(caseToken).includes(target) && Date.now() < until) {}
    expect(killByTokenSync(caseToken)).toEqual([target]);
    expect(isRunning(target)).toBe(false);
    expect(isRunning(bystander)).toBe(true);
  });

  describe('spares the calling process and its ancestors, even when they carry the token', () => {
    let modules: Awaited<ReturnType<typeof compileForChild>>;
    beforeAll(async () => {
      modules = await compileForChild(['process/sweep.ts', 'process/proc-stat.ts', 'process/proc-read.ts']);
      // Sweeps its own token from inside a token-carrying process whose parent carries it too.
      await writeFile(
        join(modules.dir, 'sweep-self.mjs'),
        `import { spawn, spawnSync } from 'node:child_process';
import { killByToken, CASE_TOKEN_ENV } from './process/sweep.js';
if (process.argv[2] === 'parent') {
  const child = spawnSync(process.execPath, [process.argv[1]], { encoding: 'utf8' });
  process.stdout.write(JSON.stringify({ parent: process.pid, ...JSON.parse(child.stdout) }));
} else {
  const sleeper = spawn(process.execPath, ['-e', ${JSON.stringify(SLEEP_FOREVER)}], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const killed = await killByToken(process.env[CASE_TOKEN_ENV]);
  process.stdout.write(JSON.stringify({ killed, sleeper: sleeper.pid, self: process.pid }));
  process.exit(0);
}
`,
      );
    });
    afterAll(() => modules?.dispose());

    it('kills only the sleeper', async () => {
      const caseToken = token();
      const { stdout } = await promisify(execFile)(process.execPath, [join(modules.dir, 'sweep-self.mjs'), 'parent'], {
        env: { [CASE_TOKEN_ENV]: caseToken },
        timeout: 20_000,
      });
      const report = JSON.parse(stdout) as { parent: number; self: number; sleeper: number; killed: number[] };
      expect(report.killed).toEqual([report.sleeper]);
      expect(report.killed).not.toContain(report.self);
      expect(report.killed).not.toContain(report.parent);
    }, 20_000);
  });

  it('returns [] where there is no /proc', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
    const caseToken = token();
    const target = startSleeper({ [CASE_TOKEN_ENV]: caseToken });
    Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' });
    try {
      expect(await killByToken(caseToken)).toEqual([]);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
    expect(isRunning(target)).toBe(true);
  });
});
