import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INIT_ARGV } from './namespace-init.js';
import {
  probeBubblewrap,
  probeSandbox,
  resolveSandbox,
  SandboxError,
  type SandboxProbe,
  sandboxArgv,
} from './sandbox.js';
import { agent, killStrays, pathOnlyEnv, runIn, runningPids, shellQuote } from './test-support/processes.js';
import type { RunProcessOptions } from './types.js';

const MiB = 1024 * 1024;

/** Host pids of running (non-zombie) processes whose command line contains `marker`. */
function pidsWithMarker(marker: string): number[] {
  return runningPids((pid) => pid !== process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker));
}

/**
 * A shell snippet that starts a daemon (setsid: it leaves the process group and session) whose own
 * command line holds `marker`. The marker is assembled at run time, so the outer shell's and bwrap's
 * command lines never contain it: a host-side search finds the daemon alone.
 */
function daemonSnippet(marker: string): string {
  const [head, tail] = [marker.slice(0, 6), marker.slice(6)];
  return `M=${head}; setsid sh -c "sleep 300; : $M${tail}" < /dev/null > /dev/null 2>&1 &`;
}

const probe = await probeSandbox();

describe('sandboxArgv', () => {
  const area = '/tmp/area';
  const argv = sandboxArgv({ area, workspace: '/tmp/area/ws', network: false, bwrapPath: '/usr/bin/bwrap' });

  it('makes the host read-only (its /tmp too, still visible) and only the area writable', () => {
    expect(argv[0]).toBe('/usr/bin/bwrap');
    const joined = argv.join(' ');
    expect(joined).toContain('--ro-bind / /');
    expect(joined).toContain(`--bind ${area} ${area}`);
    expect(joined).toContain('--dev /dev');
    expect(joined).toContain('--proc /proc');
    expect(joined).not.toContain('--tmpfs /tmp');
    expect(joined).toContain('--chdir /tmp/area/ws');
  });

  it('isolates processes, ipc, hostname and (without network) the network, and drops capabilities', () => {
    for (const flag of ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent']) {
      expect(argv).toContain(flag);
    }
    expect(argv).toContain('--new-session');
    expect(argv.join(' ')).toContain('--cap-drop ALL');
    expect(argv).not.toContain('--unshare-user');
    expect(argv.at(-1)).toBe('--');
  });

  it('keeps, as root, only the capabilities of file ownership; as another user none', () => {
    const where = { area, workspace: '/tmp/area/ws', network: true, bwrapPath: '/usr/bin/bwrap' };
    const added = (args: string[]) => args.flatMap((arg, index) => (arg === '--cap-add' ? [args[index + 1]] : []));
    const root = sandboxArgv({ ...where, asRoot: true });
    expect(added(root)).toEqual(['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID']);
    // Added after everything is dropped, or the drop would take them away again.
    expect(root.indexOf('--cap-add')).toBeGreaterThan(root.indexOf('--cap-drop'));
    expect(added(sandboxArgv({ ...where, asRoot: false }))).toEqual([]);
  });

  it('keeps kernel settings read-only, and without network hides the host sockets in /run', () => {
    const joined = argv.join(' ');
    expect(joined).toContain('--ro-bind /proc/sys /proc/sys');
    expect(joined.indexOf('--tmpfs /run')).toBeGreaterThan(-1);
    expect(joined.indexOf('--tmpfs /run')).toBeLessThan(joined.indexOf(`--bind ${area}`));
    const networked = sandboxArgv({ area, workspace: '/tmp/area/ws', network: true }).join(' ');
    expect(networked).not.toContain('--tmpfs /run');
  });

  it('mounts the read-only paths over their place in the area, after the area', () => {
    const file = `${area}/prompt.txt`;
    const joined = sandboxArgv({ area, workspace: area, network: true, readOnly: [file] }).join(' ');
    expect(joined).toContain(`--ro-bind ${file} ${file}`);
    expect(joined.indexOf(`--ro-bind ${file}`)).toBeGreaterThan(joined.indexOf(`--bind ${area} ${area}`));
    expect(argv.join(' ')).not.toContain(file);
  });

  it('shares the network only when asked', () => {
    const withNetwork = sandboxArgv({ area, workspace: area, network: true, bwrapPath: 'bwrap' });
    expect(withNetwork).not.toContain('--unshare-net');
    expect(withNetwork).toContain('--unshare-pid');
  });
});

describe('probeBubblewrap and resolveSandbox', () => {
  let fakeDir: string;
  beforeEach(async () => {
    fakeDir = await mkdtemp(join(tmpdir(), 'gz-bench-fake-bwrap-'));
  });
  afterEach(async () => {
    await rm(fakeDir, { recursive: true, force: true });
  });

  async function fakeBwrap(trialScript: string): Promise<string> {
    const path = join(fakeDir, 'bwrap');
    await writeFile(
      path,
      `#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 9.9.9"; exit 0; fi\n${trialScript}\n`,
    );
    await chmod(path, 0o755);
    return path;
  }

  it('reports bubblewrap missing from the PATH, or at a path that does not exist', async () => {
    expect(await probeBubblewrap(undefined)).toEqual({
      available: false,
      installed: false,
      reason: 'bwrap is not on the PATH',
    });
    expect(await probeBubblewrap(join(fakeDir, 'nope'))).toMatchObject({ available: false, installed: false });
  });

  it('names refused user namespaces, from the first line of what bwrap said', async () => {
    const bwrap = await fakeBwrap(
      `echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow it." >&2\necho "second line" >&2\nexit 1`,
    );
    const result = await probeBubblewrap(bwrap);
    expect(result).toEqual({
      available: false,
      installed: true,
      reason:
        'user namespaces are refused (No permissions to creating new namespace, likely because the kernel does not allow it.)',
    });
  });

  it('passes on any other error text, first line only', async () => {
    const bwrap = await fakeBwrap(
      `echo "bwrap: Can't mount proc on /newroot/proc: Operation not permitted" >&2\nexit 1`,
    );
    expect(await probeBubblewrap(bwrap)).toMatchObject({
      available: false,
      reason: "Can't mount proc on /newroot/proc: Operation not permitted",
    });
  });

  it('reports the version of a bwrap that runs the trial command', async () => {
    const bwrap = await fakeBwrap('exit 0');
    expect(await probeBubblewrap(bwrap)).toEqual({ available: true, version: '9.9.9', bwrapPath: bwrap });
  });

  const works: SandboxProbe = { available: true, version: '0.8.0', bwrapPath: '/usr/bin/bwrap' };
  const missing: SandboxProbe = { available: false, installed: false, reason: 'bwrap is not on the PATH' };
  const broken: SandboxProbe = { available: false, installed: true, reason: 'user namespaces are refused (x)' };

  it('auto uses bwrap where it works, and otherwise none with a plain note', async () => {
    expect(await resolveSandbox('auto', async () => works)).toEqual({ kind: 'bwrap' });
    expect(await resolveSandbox('auto', async () => missing)).toEqual({
      kind: 'none',
      note: 'bubblewrap is not installed; cases run without a sandbox',
    });
    expect(await resolveSandbox('auto', async () => broken)).toEqual({
      kind: 'none',
      note: 'bubblewrap does not work here: user namespaces are refused (x); cases run without a sandbox',
    });
  });

  it('bwrap throws a SandboxError with the reason and a fix when bubblewrap does not work', async () => {
    expect(await resolveSandbox('bwrap', async () => works)).toEqual({ kind: 'bwrap' });
    const error = await resolveSandbox('bwrap', async () => broken).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: 'GZ_BENCH_SANDBOX_UNAVAILABLE' });
    expect((error as Error).message).toMatch(/does not work here: user namespaces are refused \(x\).*"none"/);
    await expect(resolveSandbox('bwrap', async () => missing)).rejects.toThrow(/not installed; install bubblewrap/);
  });

  it('none never probes', async () => {
    const refuse = () => Promise.reject(new Error('probed'));
    expect(await resolveSandbox('none', refuse)).toEqual({ kind: 'none' });
  });

  it('probes once per process', () => {
    expect(probeSandbox()).toBe(probeSandbox());
  });
});

describe.skipIf(!probe.available)('runProcess in a bwrap sandbox', () => {
  let root: string;
  let area: string;
  let workspace: string;
  const strays: number[] = [];

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-sandbox-')));
    area = join(root, 'area');
    workspace = join(area, 'workspace');
    await mkdir(workspace, { recursive: true });
  });

  afterEach(async () => {
    killStrays(strays);
    await rm(root, { recursive: true, force: true });
  });

  /** Polls the host every 20 ms, at most `tries` times, for the daemons of `marker`; records them for cleanup. */
  async function findDaemons(marker: string, tries: number): Promise<number[]> {
    let daemons: number[] = [];
    for (let tried = 0; tried < tries && daemons.length === 0; tried += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      daemons = pidsWithMarker(marker);
    }
    strays.push(...daemons);
    return daemons;
  }

  function run(command: string, overrides: Partial<RunProcessOptions> & { network?: boolean } = {}) {
    const { network = false, ...rest } = overrides;
    return runIn(workspace, command, {
      env: pathOnlyEnv({ HOME: process.env.HOME ?? '/root', TMPDIR: area }),
      sandbox: { argv: sandboxArgv({ area, workspace, network }) },
      ...rest,
    });
  }

  it('passes exit codes and output through, and runs in the workspace', async () => {
    const result = await run('pwd; echo err >&2; exit 7');
    expect(result).toMatchObject({ exitCode: 7, signal: null, timedOut: false, aborted: false });
    expect(result.output.text).toBe(`${workspace}\nerr\n`);
  });

  it('reports a command killed by a signal as exit code 128+n, as bwrap passes it on', async () => {
    const result = await run('kill -USR1 $$');
    expect(result).toMatchObject({ exitCode: 128 + 10, signal: null });
  });

  it('does not hand the info descriptor to the command, so it cannot name a pid to be killed', async () => {
    const result = await run('readlink /proc/$$/fd/3 || echo no-fd-3');
    expect(result.output.text).toBe('no-fd-3\n');
  });

  it("shows the host's files under /tmp read-only: agents and projects may live there", async () => {
    const outsideDir = join(root, 'outside');
    await mkdir(outsideDir);
    await writeFile(join(outsideDir, 'agent.txt'), 'found\n');
    const result = await run(
      `cat ${shellQuote(join(outsideDir, 'agent.txt'))}; echo x >> ${shellQuote(join(outsideDir, 'agent.txt'))} || echo refused`,
    );
    // stdout and stderr arrive in either order.
    expect(result.output.text).toMatch(/^found$/m);
    expect(result.output.text).toMatch(/^refused$/m);
    expect(result.output.text).toContain('Read-only file system');
    expect(await readFile(join(outsideDir, 'agent.txt'), 'utf8')).toBe('found\n');
  });

  it('refuses writes to kernel settings, even for a root harness', async () => {
    const result = await run('echo 1 > /proc/sys/vm/stat_interval || echo refused');
    expect(result.output.text).toMatch(/^refused$/m);
  });

  it('lets the command write inside the area', async () => {
    const result = await run(`echo inside > made.txt && mkdir -p "$TMPDIR/t" && echo tmp > "$TMPDIR/t/f"`);
    expect(result.exitCode).toBe(0);
    expect(await readFile(join(workspace, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(await readFile(join(area, 't', 'f'), 'utf8')).toBe('tmp\n');
  });

  it.runIf(process.getuid?.() === 0)(
    'as root, gives the commands exactly the file ownership capabilities, which reach no host file',
    async () => {
      const hostFile = join(root, 'host-file');
      await writeFile(hostFile, 'host\n');
      const result = await run(
        `grep CapEff /proc/self/status; chown 1000 ${shellQuote(hostFile)} || echo chown-refused; ` +
          `chmod 777 ${shellQuote(hostFile)} || echo chmod-refused; mknod dev c 1 3 || echo mknod-refused; ` +
          'mount -t tmpfs none /mnt 2>/dev/null || echo mount-refused; touch made && chown 1000:1000 made && stat -c %u made',
      );
      // CAP_CHOWN (0), CAP_DAC_OVERRIDE (1), CAP_FOWNER (3), CAP_FSETID (4), and nothing else.
      expect(result.output.text).toMatch(/^CapEff:\s+0+1b$/m);
      for (const refused of ['chown-refused', 'chmod-refused', 'mknod-refused', 'mount-refused']) {
        expect(result.output.text).toContain(refused);
      }
      expect(result.output.text).toMatch(/^1000$/m);
      expect(await readFile(hostFile, 'utf8')).toBe('host\n');
    },
  );

  it('refuses writes outside the area and leaves nothing behind', async () => {
    const name = `gz-bench-test-${randomUUID()}`;
    const home = process.env.HOME ?? '/root';
    // HOME must be outside the area for the HOME write to mean something.
    expect(home.startsWith(area)).toBe(false);
    const outsideDir = join(root, 'outside');
    await mkdir(outsideDir);
    const attempts = [
      `/etc/${name}`,
      `${home}/${name}`,
      `${outsideDir}/${name}`,
      // The fixtures directory stands for the user's repository: readable, not writable.
      fileURLToPath(new URL(`../../../../fixtures/${name}`, import.meta.url)),
    ];
    const script = attempts.map((path) => `touch ${shellQuote(path)} && echo "wrote ${path}"`).join('; ');
    // Root inside keeps no capabilities, so it cannot remount the read-only host filesystem either.
    const result = await run(
      `${script}; mount -o remount,rw / 2>/dev/null || echo remount-refused; touch /etc/${name}`,
    );
    expect(result.output.text).not.toMatch(/^wrote /m);
    expect(result.output.text).toContain('remount-refused');
    expect(result.output.text).toMatch(/Read-only file system/);
    expect(result.exitCode).not.toBe(0);
    for (const path of attempts) expect(existsSync(path)).toBe(false);
    expect(await readdir(outsideDir)).toEqual([]);
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    let connections = 0;
    beforeEach(async () => {
      connections = 0;
      server = createServer((socket) => {
        connections += 1;
        // The client exits as soon as it is connected: a reset here is expected, not a failure.
        socket.on('error', () => {});
        socket.end('hello\n');
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as { port: number }).port;
    });
    afterEach(async () => {
      server.close();
      await once(server, 'close');
    });

    const connect = () =>
      `${shellQuote(process.execPath)} -e ${shellQuote(
        `require('net').connect(${'$PORT'}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(1); })`,
      ).replace('$PORT', '\'"$PORT"\'')}`;

    it('cannot reach a server on the host loopback without network', async () => {
      const result = await run(connect(), { env: { PATH: process.env.PATH ?? '', PORT: String(port) } });
      expect(result.exitCode).toBe(1);
      expect(result.output.text).toMatch(/ECONNREFUSED|ENETUNREACH/);
      expect(connections).toBe(0);
    });

    it('reaches it with network', async () => {
      const result = await run(connect(), { network: true, env: { PATH: process.env.PATH ?? '', PORT: String(port) } });
      expect(result.output.text).toBe('connected\n');
      expect(result.exitCode).toBe(0);
      expect(connections).toBe(1);
    });
  });

  it('ends a setsid daemon started inside the sandbox when the command exits', async () => {
    const marker = `gzmark-${randomUUID()}`;
    const running = run(`${daemonSnippet(marker)} sleep 1; echo done`);
    // Find the daemon from the host while the command runs, so the test cannot pass vacuously.
    const daemons = await findDaemons(marker, 100);
    const result = await running;
    expect(daemons.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output.text).toBe('done\n');
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('on timeout ends the sandbox, daemons included, and settles promptly', async () => {
    const marker = `gzmark-${randomUUID()}`;
    const started = Date.now();
    const running = run(`${daemonSnippet(marker)} echo started; exec sleep 300`, { timeoutMs: 800 });
    const daemons = await findDaemons(marker, 40);
    const result = await running;
    expect(daemons.length).toBeGreaterThan(0);
    // The command itself got the SIGTERM and died of it, which the sandbox reports as 128+15.
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: 143 });
    expect(result.output.text).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('on timeout sends SIGTERM to the command inside, which may clean up before the sandbox ends', async () => {
    const command = `trap 'echo cleaning up; sleep 0.2; echo cleaned up; exit 0' TERM; echo started; while :; do sleep 0.05; done`;
    const result = await run(command, { timeoutMs: 800, killGraceMs: 5000 });
    expect(result).toMatchObject({ timedOut: true, exitCode: 0 });
    expect(result.output.text).toMatch(/^started\n(Terminated\n)?cleaning up\ncleaned up\n$/);
  });

  it("under gz-bench's init, gives the command's other processes their grace period", async () => {
    const child = `/bin/sh -c 'trap "echo cleaning up; sleep 0.3; echo cleaned up; exit 0" TERM; while :; do sleep 0.05; done'`;
    const result = await runIn(workspace, `${child} & echo started; wait`, {
      env: pathOnlyEnv({ HOME: process.env.HOME ?? '/root', TMPDIR: area }),
      sandbox: { argv: [...sandboxArgv({ area, workspace, network: false }), ...INIT_ARGV], init: true },
      timeoutMs: 800,
      killGraceMs: 5000,
    });
    expect(result.timedOut).toBe(true);
    expect(result.output.text).toContain('cleaning up\ncleaned up\n');
    expect(result.durationMs).toBeLessThan(4000);
  });

  it('enforces a disk limit on the area', async () => {
    // 1 MiB every 5 ms: 200 MiB would take a second or more; the cap must end it far sooner.
    const result = await run(agent('fill-disk', '200', '5'), {
      maxDiskBytes: { path: area, limit: 5 * MiB, intervalMs: 20 },
      timeoutMs: 30_000,
    });
    expect(result).toMatchObject({ timedOut: false, limitExceeded: { kind: 'disk', limitBytes: 5 * MiB } });
    expect((await readdir(workspace)).length).toBeLessThan(60);
  }, 40_000);
});
