import { accessSync, constants, existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, it } from 'vitest';
import { reachableCheckout } from '../support/other-user.js';
import { waitUntilEnded } from '../support/processes.js';
import { resultOf } from '../support/report.js';
import { cleanEnv } from '../support/run.js';
import {
  agent,
  caseProcesses,
  openToOthers,
  parseReport,
  SANDBOX_WORKS,
  SCRIPT_CMD,
  type Scene,
  sceneFactory,
  shared,
  treeDigest,
  watchCaseProcesses,
} from './support.js';

// Adversarial tests of the case area and the sandbox: an agent that locks its files away, swaps its
// workspace for a link, fills the disk or floods its output, writes outside, or reaches the network.

const scene = sceneFactory();
const isRoot = process.getuid?.() === 0;

/** Nested directories and the workspace itself made mode 000, with a file deep inside. */
const LOCK_AWAY = 'mkdir -p a/b/c && touch a/b/c/f && chmod 000 a/b/c a/b a && chmod 000 .';

// Only root may create the stand-in host service's socket directory in /run.
const RUN_WRITABLE = (() => {
  try {
    accessSync('/run', constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

describe.concurrent('adversarial: case area and sandbox', () => {
  it('removes a workspace the agent made mode 000, nested dirs and all (root)', async ({ expect }) => {
    const where = await scene();
    await where.writeSuite('locked', {}, [{ id: 'locked', prompt: LOCK_AWAY }]);
    const result = await where.runSuite(['--json']);
    expect(resultOf(parseReport(result), 'locked').agent?.exitCode).toBe(0);
    expect(await readdir(where.tmp)).toEqual([]);
  });

  it.runIf(isRoot)(
    'removes a workspace the agent made mode 000, nested dirs and all (as nobody)',
    async ({ expect, onTestFinished }) => {
      // Root ignores permission bits; an unprivileged harness is the case that needs the cleanup to work.
      const where = await scene();
      const checkout = await reachableCheckout();
      onTestFinished(() => checkout.dispose());
      await openToOthers(where.project.dir);
      // The project's packages, like the CLI itself, come from the copy that nobody can reach.
      await rm(join(where.project.dir, 'node_modules'));
      await symlink(checkout.nodeModules, join(where.project.dir, 'node_modules'), 'dir');
      const home = join(where.project.dir, 'home');
      await mkdir(home);
      await where.writeSuite('locked', {}, [{ id: 'locked', prompt: LOCK_AWAY }]);
      for (const path of [where.tmp, home]) await chown(path, 65534, 65534);
      const result = await execa(
        'setpriv',
        [
          '--reuid=nobody',
          '--regid=nogroup',
          '--clear-groups',
          process.execPath,
          checkout.cliScript,
          'run',
          'suite.json',
          '--cmd',
          SCRIPT_CMD,
          '--json',
        ],
        {
          cwd: where.project.dir,
          env: cleanEnv({ TMPDIR: where.tmp, HOME: home }),
          extendEnv: false,
          reject: false,
          timeout: 60_000,
          stdin: 'ignore',
        },
      );
      expect(resultOf(parseReport(result), 'locked').agent?.exitCode).toBe(0);
      expect(result.exitCode).toBe(0);
      expect(await readdir(where.tmp)).toEqual([]);
    },
  );

  it('a workspace swapped for a symlink fails the case and leaves the target untouched', async ({ expect }) => {
    const where = await scene();
    const outside = join(where.project.dir, 'outside');
    await where.project.write('outside/keep.txt', 'keep me\n');
    await where.writeSuite('swapped', {}, [
      {
        id: 'swap',
        prompt: `cd .. && ${agent('symlink-swap.mjs', 'workspace', outside)}`,
        // Checks that would pass, or delete, through the link, were they run.
        checks: [
          { kind: 'fileExists', path: 'keep.txt' },
          { kind: 'command', run: 'rm -f keep.txt' },
        ],
      },
    ]);
    const before = await treeDigest(outside);
    const result = await where.runSuite(['--json', '--sandbox', 'none']);
    expect(resultOf(parseReport(result), 'swap')).toMatchObject({
      passed: false,
      error: 'the agent replaced the workspace with a symlink',
      checkResults: [{ skipped: true }, { skipped: true }],
    });
    expect(result.exitCode).toBe(1);
    expect(await treeDigest(outside)).toEqual(before);
    expect(await readdir(where.tmp)).toEqual([]);
  });

  describe('limits', () => {
    const limitsRun = shared(async () => {
      const where = await scene();
      await where.writeSuite('limits', {}, [
        { id: 'disk', maxDiskMB: 5, prompt: agent('fill-disk-slowly.mjs', '200', '20') },
        // 20 MiB written in one go, between the poll at the start and the next one 500 ms later.
        { id: 'fast-disk', maxDiskMB: 5, prompt: 'head -c 20971520 /dev/zero > fill.bin' },
        { id: 'flood', maxOutputMB: 1, prompt: agent('flood.mjs', '200') },
      ]);
      const run = where.runSuite(['--json']);
      const { value: result, seen } = await watchCaseProcesses(where.tmp, run);
      return { report: parseReport(result), seen, where };
    });

    it('an agent filling the disk past maxDiskMB fails naming the limit, long before 200 MiB', async ({ expect }) => {
      const { report, seen, where } = await limitsRun();
      const disk = resultOf(report, 'disk');
      expect(disk).toMatchObject({
        passed: false,
        failedStep: 'agent',
        error: 'agent command exceeded the disk limit of 5 MiB',
      });
      const filled = Math.max(
        ...[...(disk.agent?.outputTail ?? '').matchAll(/^filled (\d+)$/gm)].map((m) => Number(m[1])),
      );
      expect(filled).toBeGreaterThan(5);
      expect(filled).toBeLessThan(50);
      await expectNothingLeft(expect, where, seen);
    });

    // An agent can write past the cap and exit between two polls: the final measurement catches it.
    it('an agent that fills the disk faster than the poll fails the case too', async ({ expect }) => {
      const { report } = await limitsRun();
      expect(resultOf(report, 'fast-disk').error).toBe('agent command exceeded the disk limit of 5 MiB');
    });

    it('an agent flooding its output past maxOutputMB fails naming the limit', async ({ expect }) => {
      const { report, seen, where } = await limitsRun();
      const flood = resultOf(report, 'flood');
      expect(flood).toMatchObject({ passed: false, error: 'agent command exceeded the output limit of 1 MiB' });
      // Ended well before the end: what was in flight when the limit tripped is still counted, a few MiB
      // on a loaded machine, nowhere near the 200 MiB the agent meant to write.
      expect(flood.agent?.outputBytes).toBeLessThan(64 * 1024 * 1024);
      expect(flood.agent?.outputTail).not.toContain('FLOOD-END');
      await expectNothingLeft(expect, where, seen);
    });
  });

  describe('the bwrap sandbox', () => {
    const connections: string[] = [];
    let server: Server | undefined;
    const unixServers: Server[] = [];
    const outsideDirs: string[] = [];
    afterAll(async () => {
      server?.close();
      for (const unix of unixServers) unix.close();
      await Promise.all(outsideDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    });

    const hostServiceSocket = async (): Promise<string> => {
      const socketDir = await mkdtemp(join('/run', 'gz-bench-adversarial-socket-'));
      outsideDirs.push(socketDir);
      const socketPath = join(socketDir, 'service.sock');
      const unixServer = createServer((socket) => {
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('end', () => connections.push(text));
      });
      unixServers.push(unixServer);
      await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
      return socketPath;
    };

    const sandboxRun = (mode: 'bwrap' | 'none') =>
      shared(async () => {
        if (server === undefined) {
          server = createServer((socket) => {
            let text = '';
            socket.on('data', (chunk) => {
              text += chunk;
            });
            socket.on('end', () => connections.push(text));
          });
          await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
        }
        const port = String((server.address() as { port: number }).port);
        const where = await scene();
        // A real directory outside /tmp (bwrap gives the sandbox a private /tmp), as a home would be.
        const home = await mkdtemp(join('/var/tmp', 'gz-bench-adversarial-home-'));
        outsideDirs.push(home);
        // A host service on a Unix socket in /run, as /var/run/docker.sock (→ /run) or dbus's would be.
        const socketPath = RUN_WRITABLE ? await hostServiceSocket() : undefined;
        const hostTmp = join(tmpdir(), `gz-bench-adversarial-${mode}-${process.pid}-${Date.now()}`);
        const targets = [hostTmp, join(where.project.dir, 'escape.txt'), join(home, '.bashrc'), 'inside.txt'];
        await where.writeSuite('sandbox', {}, [
          {
            id: 'writes',
            realHome: true,
            prompt: agent('write-paths.mjs', ...targets),
            checks: [{ kind: 'fileExists', path: 'inside.txt' }],
          },
          { id: 'net-off', network: false, prompt: agent('connect.mjs', port, `net-off-${mode}`) },
          { id: 'net-on', prompt: agent('connect.mjs', port, `net-on-${mode}`) },
          ...(socketPath === undefined
            ? []
            : [{ id: 'unix-off', network: false, prompt: agent('connect.mjs', socketPath, `unix-off-${mode}`) }]),
          { id: 'proc-sys', prompt: agent('open-for-write.mjs', '/proc/sys/vm/stat_interval') },
          // Alive long enough to be seen however fast the others are: the watch of processes is proven.
          { id: 'lingers', prompt: agent('sleeper.mjs', '0.5') },
        ]);
        const run = where.runSuite(['--json', '--sandbox', mode], { HOME: home });
        const { value: result, seen } = await watchCaseProcesses(where.tmp, run);
        const escaped = targets.slice(0, 3).filter((path) => existsSync(path));
        for (const path of escaped) await rm(path, { force: true });
        return { report: parseReport(result), seen, where, escaped, homeEntries: await readdir(home) };
      });
    const bwrap = sandboxRun('bwrap');
    const none = sandboxRun('none');

    it.skipIf(!SANDBOX_WORKS)(
      'an agent cannot write outside its case area, but can in its workspace',
      async ({ expect }) => {
        const { report, seen, where, escaped, homeEntries } = await bwrap();
        const writes = resultOf(report, 'writes');
        expect(writes).toMatchObject({ passed: true, sandbox: 'bwrap' });
        expect(writes.agent?.outputTail).toMatch(/\.bashrc: EROFS$/m);
        expect(writes.agent?.outputTail).toMatch(/^inside\.txt: written$/m);
        expect(escaped).toEqual([]);
        expect(homeEntries).toEqual([]);
        await expectNothingLeft(expect, where, seen);
      },
    );

    it.skipIf(!SANDBOX_WORKS)(
      'network: false cuts the loopback of the host; the default keeps it',
      async ({ expect }) => {
        const { report } = await bwrap();
        expect(resultOf(report, 'net-off').agent?.outputTail).toMatch(/^connect failed: /m);
        expect(resultOf(report, 'net-on').agent?.outputTail).toBe('connected\n');
        await expect.poll(() => connections).toContain('net-on-bwrap');
        expect(connections).not.toContain('net-off-bwrap');
        expect(resultOf(report, 'net-off').warnings).toBeUndefined();
      },
    );

    // Sockets elsewhere in the host's file system stay reachable (the README says so): /run is where
    // system services keep theirs.
    it.skipIf(!SANDBOX_WORKS || !RUN_WRITABLE)(
      'network: false cuts host services on their Unix sockets in /run too',
      async ({ expect }) => {
        const { report } = await bwrap();
        expect(resultOf(report, 'unix-off').agent?.outputTail).toMatch(/^connect failed: /m);
        expect(connections).not.toContain('unix-off-bwrap');
      },
    );

    // A root harness leaves the agent uid 0, which owns /proc/sys: only a read-only mount stops writes.
    it.runIf(SANDBOX_WORKS && process.getuid?.() === 0)(
      'host sysctls are read-only in the sandbox, even as root',
      async ({ expect }) => {
        const { report } = await bwrap();
        expect(resultOf(report, 'proc-sys').agent?.outputTail).toMatch(
          /^\/proc\/sys\/vm\/stat_interval: E(ROFS|ACCES|PERM)$/m,
        );
      },
    );

    it('--sandbox none says so in the report, and warns that network: false was not enforced', async ({ expect }) => {
      const { report, escaped } = await none();
      // What the sandbox stops is possible without it: the tests above would see it.
      expect(escaped).toHaveLength(3);
      expect(resultOf(report, 'writes').sandbox).toBe('none');
      expect(resultOf(report, 'net-off')).toMatchObject({
        sandbox: 'none',
        warnings: ['network: false is not enforced: the commands ran without the bwrap sandbox'],
      });
      await expect.poll(() => connections).toContain('net-off-none');
    });
  });
});

async function expectNothingLeft(expect: import('vitest').ExpectStatic, where: Scene, seen: number[]): Promise<void> {
  expect(seen.length).toBeGreaterThan(0);
  expect(await waitUntilEnded(seen)).toEqual([]);
  expect(await caseProcesses(where.tmp)).toEqual([]);
  expect(await readdir(where.tmp)).toEqual([]);
}
