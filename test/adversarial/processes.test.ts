import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probePidNamespace } from '@gz-bench/core';
import type { ResultPromise } from 'execa';
import { describe, it } from 'vitest';
import { pluginProjectFiles } from '../support/plugin-project.js';
import { isRunning, readPidFile, waitUntilEnded } from '../support/processes.js';
import { resultOf } from '../support/report.js';
import { runVitest } from '../support/run.js';
import { sh } from '../support/shell.js';
import {
  agent,
  caseProcesses,
  killQuietly,
  parseReport,
  SANDBOX_WORKS,
  SCRIPT_CMD,
  sceneFactory,
  shared,
  suiteWith,
  watchCaseProcesses,
} from './support.js';

// Adversarial tests of what an agent may know and leave running: the harness's environment, daemons
// that leave the process group, a process that ignores SIGTERM, and a harness killed mid-run.

const scene = sceneFactory();

/** Whether cases without the sandbox run in a pid namespace here (else the sweep alone contains them). */
const PID_NAMESPACE_WORKS = (await probePidNamespace()).available;

/** The program the fake agents' daemons run, as it shows in their command line. */
const DAEMON_SOURCE = 'setInterval(() => {}, 1 << 30);';

const SECRET = 's3cret-value-of-the-harness';
const API_KEY = 'sk-adversarial-0123456789abcdef';

describe.concurrent('adversarial: environment and processes', () => {
  describe('an agent reading the environment it was not given', () => {
    const envRun = (flags: string[]) =>
      shared(async () => {
        const where = await scene();
        const harnessHome = join(where.project.dir, 'harness-home');
        await mkdir(harnessHome);
        const dump = join(where.project.dir, 'env.txt');
        await where.writeSuite('env', {}, [
          { id: 'dump', prompt: `env > ${sh(dump)}; env` },
          { id: 'real-home', realHome: true, prompt: 'echo "HOME=$HOME"' },
        ]);
        // No sandbox, so that the agent can write its dump where the test reads it.
        const result = await where.runSuite(['--json', '--sandbox', 'none', ...flags], {
          GZ_TEST_SECRET: SECRET,
          OPENAI_API_KEY: API_KEY,
          HOME: harnessHome,
        });
        return { result, dump: await readFile(dump, 'utf8'), harnessHome, tmp: where.tmp };
      });
    const withoutAllow = envRun([]);
    const allowingKey = envRun(['--allow-env', 'OPENAI_API_KEY']);

    it('neither the output, the report nor the agent file holds a harness secret', async ({ expect }) => {
      const { result, dump } = await withoutAllow();
      expect(dump).toContain('GZ_BENCH_CASE_TOKEN=');
      for (const text of [dump, String(result.stdout), String(result.stderr)]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(API_KEY);
      }
      expect(dump).not.toMatch(/^(GZ_TEST_SECRET|OPENAI_API_KEY)=/m);
    });

    it('--allow-env passes the named variable, and only it', async ({ expect }) => {
      const { result, dump } = await allowingKey();
      expect(dump).toContain(`OPENAI_API_KEY=${API_KEY}\n`);
      expect(dump).not.toContain(SECRET);
      expect(String(result.stdout)).not.toContain(SECRET);
    });

    it("HOME is the case's own, inside its area, unless realHome", async ({ expect }) => {
      const { result, dump, harnessHome, tmp } = await withoutAllow();
      const home = /^HOME=(.*)$/m.exec(dump)?.[1];
      expect(home).toMatch(new RegExp(`^${tmp}/gz-bench-[^/]+/home$`));
      expect(dump).toMatch(new RegExp(`^TMPDIR=${tmp}/gz-bench-[^/]+/tmp$`, 'm'));
      expect(resultOf(parseReport(result), 'real-home').agent?.outputTail).toBe(`HOME=${harnessHome}\n`);
      expect(await readdir(tmp)).toEqual([]);
    });
  });

  describe('processes that outlive their command', () => {
    /** A daemon's pidfile: absolute without a sandbox; with one, pids inside it mean nothing here. */
    // The sleep lets the test see the daemon run; it is the sweep's job to end it. In the sandbox the
    // test can only see it by sampling the host's processes, which a busy machine does slowly.
    const daemonCases = (pidDir: string | undefined) => [
      {
        id: 'setsid',
        prompt: `${agent('setsid-daemon.mjs', pidDir ? join(pidDir, 'setsid.pid') : 'setsid.pid')}; sleep ${pidDir ? 1 : 4}`,
      },
      {
        id: 'double-fork',
        prompt: `${agent('double-fork.mjs', pidDir ? join(pidDir, 'double.pid') : 'double.pid')}; sleep ${pidDir ? 1 : 4}`,
      },
    ];

    const unsandboxed = shared(async () => {
      const where = await scene();
      await where.writeSuite('escapees', {}, [
        ...daemonCases(where.project.dir),
        // 3 s, so that Node has started and set its SIGTERM handler (and printed `ready`) by the timeout.
        { id: 'stubborn', timeoutSec: 3, prompt: agent('stubborn.mjs') },
        { id: 'no-network', network: false, prompt: 'true' },
      ]);
      const before = await caseProcesses(where.tmp);
      const run = where.runSuite(['--json', '--sandbox', 'none']);
      const { value: result, seen, commands } = await watchCaseProcesses(where.tmp, run);
      const pids = [
        ...(await readPidFile(join(where.project.dir, 'setsid.pid'))),
        ...(await readPidFile(join(where.project.dir, 'double.pid'))),
      ];
      return { result, seen, commands, pids, before, after: await caseProcesses(where.tmp), tmp: where.tmp };
    });

    const sandboxed = shared(async () => {
      const where = await scene();
      await where.writeSuite('escapees', {}, daemonCases(undefined));
      const before = await caseProcesses(where.tmp);
      const run = where.runSuite(['--json', '--sandbox', 'bwrap']);
      const { value: result, seen, commands } = await watchCaseProcesses(where.tmp, run);
      return { result, seen, commands, before, after: await caseProcesses(where.tmp), tmp: where.tmp };
    });

    // Without the bwrap sandbox, the commands' pid namespace ends their daemons; with GZ_BENCH_CONTAINMENT=sweep
    // (or where no namespace can be made) the token sweep does.
    const sweptOnly = shared(async () => {
      const where = await scene();
      await where.writeSuite('escapees', {}, daemonCases(where.project.dir));
      const run = where.runSuite(['--json', '--sandbox', 'none'], { GZ_BENCH_CONTAINMENT: 'sweep' });
      const { value: result, seen } = await watchCaseProcesses(where.tmp, run);
      const pids = [
        ...(await readPidFile(join(where.project.dir, 'setsid.pid'))),
        ...(await readPidFile(join(where.project.dir, 'double.pid'))),
      ];
      return { result, seen, pids, after: await caseProcesses(where.tmp), tmp: where.tmp };
    });

    const scrubbed = shared(async () => {
      const where = await scene();
      const markers = [`gzmark-${randomUUID()}`, `gzmark-${randomUUID()}`];
      // Each marker is assembled at run time, so that only its daemon's own command line holds it.
      const [setsidDaemon, doubleForked] = markers.map(
        (marker) =>
          `M=${marker.slice(0, 6)}; setsid env -i /bin/sh -c "sleep 300; : $M${marker.slice(6)}" < /dev/null > /dev/null 2>&1 &`,
      );
      // Each agent waits (20 s at most) until the test has seen its daemon from the host.
      const seenFile = (index: number) => join(where.project.dir, `seen-${index}`);
      const waitSeen = (index: number) =>
        `i=0; while [ ! -e ${sh(seenFile(index))} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done`;
      await where.writeSuite('scrubbed', {}, [
        { id: 'setsid', prompt: `${setsidDaemon} ${waitSeen(0)}` },
        { id: 'double-fork', prompt: `(${doubleForked}); ${waitSeen(1)}` },
      ]);
      const run = where.runSuite(['--json', '--sandbox', 'none']);
      const seen = new Set<number>();
      let done = false;
      const settled = run.finally(() => {
        done = true;
      });
      while (!done) {
        for (const [index, marker] of markers.entries()) {
          const found = await processesWithMarker(marker);
          for (const pid of found) seen.add(pid);
          if (found.length > 0) await writeFile(seenFile(index), '');
        }
        await Promise.race([settled.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 50))]);
      }
      const left = (await Promise.all(markers.map(processesWithMarker))).flat();
      // Should they have survived, they must not outlive the test either.
      for (const pid of left) killQuietly(pid);
      return { result: await settled, seen: [...seen], left, tmp: where.tmp };
    });

    it('setsid and double-forked daemons are dead once the CLI exits (--sandbox none)', async ({ expect }) => {
      const { result, seen, pids, before, after, tmp } = await unsandboxed();
      expect(before).toEqual([]);
      expect(pids).toHaveLength(2);
      // The daemons did run, outside their command's process group, and were seen by the scan.
      for (const pid of pids) expect(seen).toContain(pid);
      expect(await waitUntilEnded(seen)).toEqual([]);
      expect(after).toEqual([]);
      const report = parseReport(result);
      expect(resultOf(report, 'setsid').sandbox).toBe('none');
      expect(resultOf(report, 'double-fork').passed).toBe(true);
      expect(await readdir(tmp)).toEqual([]);
    });

    it.skipIf(!SANDBOX_WORKS)(
      'setsid and double-forked daemons are dead once the CLI exits (--sandbox bwrap)',
      async ({ expect }) => {
        const { result, seen, commands, before, after, tmp } = await sandboxed();
        expect(before).toEqual([]);
        // Both daemons (the setsid one and the double-forked grandchild) ran, seen from the host.
        expect(commands.filter((command) => command.endsWith(` -e ${DAEMON_SOURCE}`))).toHaveLength(2);
        const report = parseReport(result);
        expect(resultOf(report, 'setsid')).toMatchObject({ passed: true, sandbox: 'bwrap' });
        expect(resultOf(report, 'double-fork')).toMatchObject({ passed: true, sandbox: 'bwrap' });
        expect(await waitUntilEnded(seen)).toEqual([]);
        expect(after).toEqual([]);
        expect(await readdir(tmp)).toEqual([]);
      },
    );

    it.runIf(PID_NAMESPACE_WORKS)(
      'daemons that scrubbed their environment (setsid env -i), which no sweep finds, are dead too (--sandbox none)',
      async ({ expect }) => {
        const { result, seen, left, tmp } = await scrubbed();
        // Both ran, seen from the host while their cases ran, and neither outlived its case.
        expect(seen).toHaveLength(2);
        expect(left).toEqual([]);
        const report = parseReport(result);
        expect(resultOf(report, 'setsid')).toMatchObject({ passed: true, sandbox: 'none' });
        expect(resultOf(report, 'double-fork')).toMatchObject({ passed: true, sandbox: 'none' });
        expect(await readdir(tmp)).toEqual([]);
      },
    );

    it('setsid and double-forked daemons are dead once the CLI exits (GZ_BENCH_CONTAINMENT=sweep)', async ({
      expect,
    }) => {
      const { result, seen, pids, after, tmp } = await sweptOnly();
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(seen).toContain(pid);
      expect(await waitUntilEnded(seen)).toEqual([]);
      expect(after).toEqual([]);
      expect(resultOf(parseReport(result), 'double-fork').passed).toBe(true);
      expect(await readdir(tmp)).toEqual([]);
    });

    it('an agent that ignores SIGTERM is killed at its 1 s timeout', async ({ expect }) => {
      const { result, seen, commands, after } = await unsandboxed();
      expect(commands.some((command) => command.includes('stubborn.mjs'))).toBe(true);
      const stubborn = resultOf(parseReport(result), 'stubborn');
      expect(stubborn).toMatchObject({ passed: false, failedStep: 'agent', error: 'agent command timed out after 3s' });
      expect(stubborn.agent?.timedOut).toBe(true);
      expect(stubborn.agent?.outputTail).toBe('ready\n');
      expect(await waitUntilEnded(seen)).toEqual([]);
      expect(after).toEqual([]);
    });

    it('network: false without a sandbox passes with a warning that it was not enforced', async ({ expect }) => {
      const { result } = await unsandboxed();
      expect(resultOf(parseReport(result), 'no-network')).toMatchObject({
        passed: true,
        sandbox: 'none',
        warnings: ['network: false is not enforced: the commands ran without the bwrap sandbox'],
      });
    });
  });

  it('a run after a SIGKILLed harness removes its stale area and kills its daemon', async ({ expect }) => {
    const where = await scene(pluginProjectFiles({ cmd: SCRIPT_CMD, sandbox: 'none', report: false }));
    const pidFile = join(where.project.dir, 'daemon.pid');
    await where.project.write(
      'bench/killed.bench.json',
      suiteWith('killed', {}, [
        { id: 'hangs', timeoutSec: 60, prompt: `${agent('setsid-daemon.mjs', pidFile)}; sleep 60` },
      ]),
    );
    const harness = runVitest(['run'], { cwd: where.project.dir, env: { TMPDIR: where.tmp } }) as ResultPromise;
    const [daemon] = await readPidFile(pidFile, 30_000);
    if (daemon === undefined) throw new Error('no daemon pid');
    let leftover: number[] = [daemon];
    try {
      // Vitest and its workers, but not the case's processes: stopped first, so that no worker sees its
      // parent die and runs its exit handlers, then killed.
      const harnessPids = [harness.pid as number, ...(await descendants(harness.pid as number, where.tmp))];
      expect(harnessPids.length).toBeGreaterThanOrEqual(2);
      for (const pid of harnessPids) {
        // A short-lived child (a probe, a `git`) may have ended since it was listed: nothing to stop.
        try {
          process.kill(pid, 'SIGSTOP');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      }
      for (const pid of harnessPids) killQuietly(pid);
      expect((await harness).signal).toBe('SIGKILL');
      expect(await waitUntilEnded(harnessPids)).toEqual([]);

      // Nothing cleaned up: the area, the daemon and the agent's shell are still there.
      leftover = await caseProcesses(where.tmp);
      expect(leftover).toContain(daemon);
      expect(leftover.length).toBeGreaterThanOrEqual(2);
      // Vitest leaves its own temp dir behind too (a nanoid name): only gz-bench's are of interest here.
      const areas = await gzBenchEntries(where.tmp);
      expect(areas).toHaveLength(1);
      expect(existsSync(join(where.tmp, areas[0] as string, 'owner.json'))).toBe(true);

      await where.project.write('small.json', suiteWith('small', {}, [{ id: 'quick', prompt: 'true' }]));
      const second = await where.cli(['run', 'small.json', '--cmd', SCRIPT_CMD, '--json', '--sandbox', 'none']);
      expect(second.exitCode).toBe(0);
      expect(await waitUntilEnded(leftover)).toEqual([]);
      expect(await gzBenchEntries(where.tmp)).toEqual([]);
      expect(await caseProcesses(where.tmp)).toEqual([]);
    } finally {
      for (const pid of leftover) killQuietly(pid);
    }
  });
});

/** The `gz-bench-*` entries (case areas, CLI caches) in a TMPDIR. */
async function gzBenchEntries(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((name) => name.startsWith('gz-bench-'));
}

/** Every descendant of `pid`, from the children lists in /proc, without the case processes of `tmp` and theirs. */
async function descendants(pid: number, tmp: string): Promise<number[]> {
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

/** Running processes (not this one) whose command line holds `marker`. */
async function processesWithMarker(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker) && (await isRunning(Number(entry)))) found.push(Number(entry));
  }
  return found;
}
