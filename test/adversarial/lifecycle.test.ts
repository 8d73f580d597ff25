import { chown, mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { reachableCheckout } from '../support/other-user.js';
import { pluginProjectFiles } from '../support/plugin-project.js';
import { waitUntilEmpty, waitUntilEnded } from '../support/processes.js';
import { resultOf } from '../support/report.js';
import { cleanEnv, runVitest } from '../support/run.js';
import { nodeCommand } from '../support/shell.js';
import {
  agent,
  caseProcesses,
  killQuietly,
  openToOthers,
  parseReport,
  SANDBOX_WORKS,
  SCRIPT_CMD,
  type Scene,
  sceneFactory,
  suiteWith,
} from './support.js';

// The harness's processes die together, and leave nothing on disk: the CLI or a Vitest worker
// killed outright mid-case, and an agent whose tree no absolute path can reach.

const scene = sceneFactory();

const MODES = [
  { sandbox: 'none', runs: true },
  { sandbox: 'bwrap', runs: SANDBOX_WORKS },
] as const;

/** The program the fake agents' daemons run, as it shows in their command line. */
const DAEMON_SOURCE = 'setInterval(() => {}, 1 << 30);';

/** A case whose agent starts a daemon that leaves its process group, then sleeps for ten minutes. */
async function hangingSuite(where: Scene): Promise<void> {
  await where.writeSuite('hangs', {}, [
    { id: 'hangs', timeoutSec: 600, prompt: `${agent('setsid-daemon.mjs', 'daemon.pid')}; sleep 600` },
  ]);
}

/** `gz-bench run suite.json` in the background, as a process the test can kill. */
function startRun(where: Scene, sandbox: string): ResultPromise {
  return where.runSuite(['--json', '--sandbox', sandbox]) as ResultPromise;
}

/** Waits until the case's agent, its sleep and its daemon run; returns their pids. */
async function agentRunning(tmp: string): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pids = await caseProcesses(tmp);
    const commands = await Promise.all(pids.map(commandLine));
    if (commands.some((command) => command.endsWith(DAEMON_SOURCE)) && commands.includes('sleep 600')) return pids;
    if (Date.now() > deadline) throw new Error(`the agent did not start: ${JSON.stringify(commands)}`);
    await delay(100);
  }
}

/** Every descendant of `pid` that is not a case process: Vitest's workers and the guardians. */
async function harnessDescendants(pid: number, tmp: string): Promise<number[]> {
  const cases = new Set(await caseProcesses(tmp));
  const walk = async (parent: number): Promise<number[]> => {
    const children: number[] = [];
    for (const task of await readdir(`/proc/${parent}/task`).catch(() => [])) {
      const text = await readFile(`/proc/${parent}/task/${task}/children`, 'utf8').catch(() => '');
      children.push(...text.split(' ').filter(Boolean).map(Number));
    }
    const kept = children.filter((child) => !cases.has(child));
    return [...kept, ...(await Promise.all(kept.map(walk))).flat()];
  };
  return walk(pid);
}

/** The guardians among `pids`: processes of the guardian script whose parent is not one too (its watcher). */
async function guardians(pids: number[]): Promise<number[]> {
  const isGuardian = async (pid: number) => (await commandLine(pid)).includes('gz-bench-guardian');
  const found: number[] = [];
  for (const pid of pids) {
    if (!(await isGuardian(pid))) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!(await isGuardian(parent))) found.push(pid);
  }
  return found;
}

async function commandLine(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ').trim();
}

describe('adversarial: the harness dies, and nothing stays', () => {
  for (const { sandbox, runs } of MODES) {
    it.runIf(runs)(
      `SIGKILL of the CLI mid-case ends the worker, the agent and its daemon at once, and leaves no file (--sandbox ${sandbox})`,
      async () => {
        const where = await scene();
        await hangingSuite(where);
        const run = startRun(where, sandbox);
        const cases = await agentRunning(where.tmp);
        const harness = await harnessDescendants(run.pid as number, where.tmp);
        try {
          const commands = await Promise.all(harness.map(commandLine));
          expect(commands.filter((command) => command.includes('workers/forks.js'))).toHaveLength(1);
          expect(await guardians(harness)).toHaveLength(2);
          // The case area, the CLI's cache dir and nothing else of the run's, before the kill.
          expect((await readdir(where.tmp)).map((name) => name.replace(/\d+-\d+-\w{6}$/, '…')).sort()).toEqual([
            'gz-bench-cache-…',
            'gz-bench-…',
          ]);
          run.kill('SIGKILL');
          expect((await run).signal).toBe('SIGKILL');
          expect(await waitUntilEnded([...cases, ...harness])).toEqual([]);
          expect(await caseProcesses(where.tmp)).toEqual([]);
          expect(await waitUntilEmpty(where.tmp)).toEqual([]);
        } finally {
          for (const pid of [...cases, ...harness]) killQuietly(pid);
        }
      },
      60_000,
    );
  }

  it('SIGKILL of `vitest run` with the threads pool ends the agent and its daemon, and removes the area', async () => {
    // Threads die with the process; the agents, in groups of their own, are the guardian's to end.
    const config = [
      "import { gzBench } from '@gz-bench/vitest-plugin';",
      "import { defineConfig } from 'vitest/config';",
      `export default defineConfig({ test: { pool: 'threads' }, plugins: [gzBench(${JSON.stringify({ cmd: SCRIPT_CMD, sandbox: 'none', report: false })})] });`,
    ].join('\n');
    const where = await scene({ ...pluginProjectFiles({}), 'vitest.config.ts': config });
    await where.project.write(
      'bench/hangs.bench.json',
      suiteWith('hangs', {}, [
        { id: 'hangs', timeoutSec: 600, prompt: `${agent('setsid-daemon.mjs', 'daemon.pid')}; sleep 600` },
      ]),
    );
    const run = runVitest(['run'], { cwd: where.project.dir, env: { TMPDIR: where.tmp } }) as ResultPromise;
    const cases = await agentRunning(where.tmp);
    const harness = await harnessDescendants(run.pid as number, where.tmp);
    try {
      const commands = await Promise.all(harness.map(commandLine));
      expect(commands.filter((command) => command.includes('workers/forks.js'))).toEqual([]);
      expect(await guardians(harness)).toHaveLength(1);
      run.kill('SIGKILL');
      expect((await run).signal).toBe('SIGKILL');
      expect(await waitUntilEnded([...cases, ...harness])).toEqual([]);
      expect(await waitUntilEmpty(where.tmp)).toEqual([]);
    } finally {
      for (const pid of [...cases, ...harness]) killQuietly(pid);
    }
  }, 60_000);

  it('SIGKILL of a Vitest worker mid-case ends the run, which leaves no process and no file', async () => {
    const where = await scene();
    await hangingSuite(where);
    const run = startRun(where, 'none');
    const cases = await agentRunning(where.tmp);
    const harness = await harnessDescendants(run.pid as number, where.tmp);
    try {
      const commands = await Promise.all(harness.map(commandLine));
      const worker = harness[commands.findIndex((command) => command.includes('workers/forks.js'))];
      if (worker === undefined) throw new Error(`no worker among ${JSON.stringify(commands)}`);
      killQuietly(worker);
      const result = await run;
      expect(result.exitCode).toBe(1);
      expect(await waitUntilEnded([...cases, ...harness])).toEqual([]);
      expect(await readdir(where.tmp)).toEqual([]);
    } finally {
      for (const pid of [...cases, ...harness]) killQuietly(pid);
    }
  }, 60_000);

  it('SIGKILL of a worker and its guardian: the end of the run kills the agent and removes the area', async () => {
    const where = await scene();
    await hangingSuite(where);
    const run = startRun(where, 'none');
    const cases = await agentRunning(where.tmp);
    const harness = await harnessDescendants(run.pid as number, where.tmp);
    try {
      const commands = await Promise.all(harness.map(commandLine));
      const worker = harness[commands.findIndex((command) => command.includes('workers/forks.js'))] as number;
      // Its guardian, and the guardian's own processes (a watcher of the main process and its sleep).
      const workerChildren = await harnessDescendants(worker, where.tmp);
      expect(await guardians(workerChildren)).toHaveLength(1);
      // Stopped first, so that the guardian cannot see its worker die. The guardian's sleep may have
      // ended since it was listed, and a new one is harmless while its parent is stopped.
      for (const pid of [...workerChildren, worker]) killQuietly(pid, 'SIGSTOP');
      for (const pid of [...workerChildren, worker]) killQuietly(pid);
      const result = await run;
      expect(result.exitCode).toBe(1);
      expect(await waitUntilEnded(cases)).toEqual([]);
      expect(await readdir(where.tmp)).toEqual([]);
    } finally {
      for (const pid of [...cases, ...harness]) killQuietly(pid);
    }
  }, 60_000);

  for (const { sandbox, runs } of MODES) {
    it.runIf(runs)(
      `an agent that nests directories past PATH_MAX keeps its passing result, and its area goes (--sandbox ${sandbox})`,
      async () => {
        const where = await scene();
        await where.writeSuite('deep', {}, [
          {
            id: 'deep',
            prompt: agent('deep-tree.mjs', '600', 'lock'),
            checks: [
              { kind: 'outputMatches', pattern: '^deep tree made$', flags: 'm' },
              { kind: 'fileExists', path: 'd'.repeat(255) },
            ],
          },
        ]);
        const result = await where.runSuite(['--json', '--sandbox', sandbox]);
        const deep = resultOf(parseReport(result), 'deep');
        expect(deep).toMatchObject({ passed: true, sandbox, checkResults: [{ passed: true }, { passed: true }] });
        expect(deep.warnings).toBeUndefined();
        expect(result.exitCode).toBe(0);
        expect(await readdir(where.tmp)).toEqual([]);
      },
      60_000,
    );
  }

  it.runIf(process.getuid?.() === 0)(
    'an agent that nests directories past PATH_MAX, with one of mode 000, leaves nothing (as nobody)',
    async ({ onTestFinished }) => {
      // Root ignores permission bits; an unprivileged harness is the one that needs the fallback.
      const where = await scene();
      const checkout = await reachableCheckout();
      onTestFinished(() => checkout.dispose());
      await openToOthers(where.project.dir);
      // The project's packages, like the CLI itself, come from the copy that nobody can reach.
      await rm(join(where.project.dir, 'node_modules'));
      await symlink(checkout.nodeModules, join(where.project.dir, 'node_modules'), 'dir');
      const home = join(where.project.dir, 'home');
      await mkdir(home);
      await where.writeSuite('deep', {}, [
        {
          id: 'deep',
          prompt: nodeCommand(join(checkout.dir, 'fixtures', 'agents', 'deep-tree.mjs'), '600', 'lock'),
          checks: [{ kind: 'outputMatches', pattern: '^deep tree made$', flags: 'm' }],
        },
      ]);
      for (const path of [where.tmp, home]) await chown(path, 65534, 65534);
      const args = ['run', 'suite.json', '--cmd', SCRIPT_CMD, '--json', '--sandbox', 'none'];
      const nobody = ['--reuid=nobody', '--regid=nogroup', '--clear-groups'];
      const result = await execa('setpriv', [...nobody, process.execPath, checkout.cliScript, ...args], {
        cwd: where.project.dir,
        env: cleanEnv({ TMPDIR: where.tmp, HOME: home }),
        extendEnv: false,
        reject: false,
        timeout: 60_000,
        stdin: 'ignore',
      });
      const deep = resultOf(parseReport(result), 'deep');
      expect(deep).toMatchObject({ passed: true, checkResults: [{ passed: true }] });
      expect(deep.warnings).toBeUndefined();
      expect(await readdir(where.tmp)).toEqual([]);
    },
    60_000,
  );

  it('a kept area is marked kept, and survives the sweeps of later runs', async () => {
    const where = await scene();
    await where.writeSuite('kept', {}, [{ id: 'kept', prompt: 'echo kept > file' }]);
    const first = await where.runSuite(['--json', '--sandbox', 'none', '--keep']);
    const workspace = resultOf(parseReport(first), 'kept').workspace as string;
    const area = workspace.slice(0, -'/workspace'.length);
    expect((await readdir(area)).sort()).toEqual(['home', 'kept.json', 'prompt.txt', 'tmp', 'workspace']);
    const second = await where.runSuite(['--json', '--sandbox', 'none']);
    expect(second.exitCode).toBe(0);
    expect(await readdir(where.tmp)).toEqual([area.slice(where.tmp.length + 1)]);
    expect(await readFile(join(workspace, 'file'), 'utf8')).toBe('kept\n');
  }, 60_000);
});
