import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commandLaunch } from './command-launch.js';
import { signalProcessGroup } from './kill-tree.js';
import { INIT_ARGV } from './namespace-init.js';
import { CONTAINMENT_ENV, pidNamespaceArgv, probePidNamespace, probeUnshare } from './pid-namespace.js';
import { sandboxArgv } from './sandbox.js';
import { compileForChild } from './test-support/child-modules.js';
import { agent, killStrays, runIn, runningPids } from './test-support/processes.js';
import type { RunProcessOptions } from './types.js';

const probe = await probePidNamespace();
const isRoot = process.getuid?.() === 0;

/** Host pids of running processes whose command line holds `marker`, this one excepted. */
function pidsWithMarker(marker: string): number[] {
  return runningPids((pid) => pid !== process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker));
}

/**
 * A shell snippet that starts a daemon out of the token sweep's reach: it leaves the process group
 * and session (setsid) and scrubs its environment (`env -i`), so that only a pid namespace can end
 * it. `doubleFork` also orphans it. The marker is assembled at run time, so that no command line but
 * the daemon's holds it.
 */
function scrubbedDaemon(marker: string, doubleFork = false): string {
  const [head, tail] = [marker.slice(0, 6), marker.slice(6)];
  const daemon = `setsid env -i /bin/sh -c "sleep 300; : $M${tail}" < /dev/null > /dev/null 2>&1 &`;
  return `M=${head}; ${doubleFork ? `(${daemon});` : daemon}`;
}

function newMarker(): string {
  return `gzmark-${randomUUID()}`;
}

describe('pidNamespaceArgv', () => {
  it('runs the command under a shell init, with a user namespace only for an ordinary user', () => {
    const asRoot = pidNamespaceArgv('/usr/bin/unshare', false);
    expect(asRoot.slice(0, 5)).toEqual(['/usr/bin/unshare', '--pid', '--fork', '--kill-child', '--']);
    expect(asRoot.slice(5, 7)).toEqual(['/bin/sh', '-c']);
    // The init never execs its arguments: the command must not be pid 1, which drops SIGTERM.
    expect(asRoot[7]).toContain('(trap - TERM; exec "$@"');
    expect(asRoot[7]).toContain('exit $status');
    expect(asRoot.slice(5)).toEqual(INIT_ARGV);
    const asUser = pidNamespaceArgv('/usr/bin/unshare', true);
    expect(asUser.slice(0, 3)).toEqual(['/usr/bin/unshare', '--user', '--map-current-user']);
    expect(asUser.slice(3)).toEqual(asRoot.slice(1));
  });
});

describe('probeUnshare', () => {
  let fakeDir: string;
  beforeEach(async () => {
    fakeDir = await mkdtemp(join(tmpdir(), 'gzb-fake-unshare-'));
  });
  afterEach(() => rm(fakeDir, { recursive: true, force: true }));

  async function fakeUnshare(script: string): Promise<string> {
    const path = join(fakeDir, 'unshare');
    await writeFile(path, `#!/bin/sh\n${script}\n`);
    await chmod(path, 0o755);
    return path;
  }

  it('reports unshare missing from the PATH', async () => {
    expect(await probeUnshare(undefined, true)).toEqual({ available: false, reason: 'unshare is not on the PATH' });
  });

  it('passes on what a failing unshare said, for each way it was tried', async () => {
    const unshare = await fakeUnshare('echo "unshare: unshare failed: Operation not permitted" >&2; exit 1');
    expect(await probeUnshare(unshare, false)).toEqual({
      available: false,
      reason: 'unshare: unshare failed: Operation not permitted',
    });
    const asRoot = await probeUnshare(unshare, true);
    expect(asRoot).toMatchObject({ available: false });
    expect((asRoot as { reason: string }).reason.split('; ')).toHaveLength(2);
  });

  it('refuses a launcher that runs the command outside a pid namespace', async () => {
    // Skips its options and runs the command as it is: the command does not see itself as pid 2.
    const unshare = await fakeUnshare('while [ "$1" != -- ]; do shift; done; shift; exec "$@"');
    expect(await probeUnshare(unshare, false)).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^unexpected result \(exit 3, output "\d+\\n"\)$/),
    });
  });

  it('probes once per process', () => {
    expect(probePidNamespace()).toBe(probePidNamespace());
  });
});

describe('commandLaunch', () => {
  const where = { area: '/tmp/area', workspace: '/tmp/area/workspace', network: false, bwrapPath: '/usr/bin/bwrap' };

  it('uses the bwrap argv, which reports on fd 3, in the sandbox', async () => {
    expect(await commandLaunch({ ...where, sandbox: 'bwrap' })).toEqual({
      containment: 'bwrap',
      argv: [...sandboxArgv(where), ...INIT_ARGV],
      infoFd: true,
      init: true,
    });
  });

  it('uses a pid namespace without the sandbox where one works here, else the sweep', async () => {
    const launch = await commandLaunch({ ...where, sandbox: 'none', env: {} });
    if (probe.available) {
      expect(launch).toEqual({ containment: 'pid-namespace', argv: probe.argv, infoFd: false, init: true });
    } else expect(launch).toEqual({ containment: 'sweep', argv: [], infoFd: false, init: false });
  });

  it(`uses the sweep alone with ${CONTAINMENT_ENV}=sweep`, async () => {
    const launch = await commandLaunch({ ...where, sandbox: 'none', env: { [CONTAINMENT_ENV]: 'sweep' } });
    expect(launch).toEqual({ containment: 'sweep', argv: [], infoFd: false, init: false });
  });
});

describe('the locale, handed over by the init', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'gzb-locale-')));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Values that would run code if anything evaluated them, an empty one, and one a shell would split.
  const locale = {
    LANG: 'C.UTF-8',
    LC_ALL: '',
    LC_TIME: 'x $(touch pwned) `touch pwned2`; touch pwned3 "\'',
    LC_MESSAGES: '  two  words  ',
  };
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', OTHER: 'kept', ...locale };

  /** The `NAME=value` lines of `env -0` output, as an object. */
  function parseEnv(text: string): Record<string, string> {
    const parsed: Record<string, string> = {};
    for (const line of text.split('\0').filter((entry) => entry !== '')) {
      const equals = line.indexOf('=');
      parsed[line.slice(0, equals)] = line.slice(equals + 1);
    }
    return parsed;
  }

  it('the launcher sees no locale variable, and the command gets each back as it was', async () => {
    // A launcher that notes its environment, then runs the init as unshare and bwrap do.
    const noted = join(dir, 'launcher-env');
    const launcher = ['/bin/sh', '-c', 'env -0 > "$0"; exec "$@"', noted, ...INIT_ARGV];
    const result = await runIn(dir, 'env -0', { env, sandbox: { argv: launcher, infoFd: false, init: true } });
    expect(result.exitCode).toBe(0);
    const seen = parseEnv(readFileSync(noted, 'utf8'));
    for (const name of Object.keys(locale)) expect(seen).not.toHaveProperty(name);
    expect(seen.OTHER).toBe('kept');
    const command = parseEnv(result.output.text);
    expect(command).toMatchObject({ ...locale, OTHER: 'kept' });
    expect(Object.keys(command).filter((name) => name.startsWith('GZ_BENCH_'))).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.startsWith('pwned'))).toEqual([]);
  });

  it('leaves a variable unset that was unset', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template.
    const result = await runIn(dir, 'echo "${LANG-unset} ${LC_ALL-unset}"', {
      env: { PATH: env.PATH },
      sandbox: { argv: ['/bin/sh', '-c', 'exec "$@"', 'launcher', ...INIT_ARGV], infoFd: false, init: true },
    });
    expect(result.output.text).toBe('unset unset\n');
  });

  it.runIf(probe.available)('does so through unshare too', async () => {
    const argv = probe.available ? probe.argv : [];
    const result = await runIn(dir, 'env -0', { env, sandbox: { argv, infoFd: false, init: true } });
    expect(parseEnv(result.output.text)).toMatchObject({ ...locale, OTHER: 'kept' });
  });
});

describe.runIf(probe.available)('runProcess in a pid namespace', () => {
  let dir: string;
  const strays: number[] = [];
  const argv = probe.available ? probe.argv : [];

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'gzb-pidns-')));
  });
  afterEach(async () => {
    killStrays(strays);
    await rm(dir, { recursive: true, force: true });
  });

  function run(command: string, overrides: Partial<RunProcessOptions> = {}) {
    return runIn(dir, command, { sandbox: { argv, infoFd: false, init: true }, ...overrides });
  }

  /** Polls every 20 ms, at most `tries` times, for the daemons of `marker`; records them for cleanup. */
  async function findDaemons(marker: string, tries: number): Promise<number[]> {
    let daemons: number[] = [];
    for (let tried = 0; tried < tries && daemons.length === 0; tried += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      daemons = pidsWithMarker(marker);
    }
    strays.push(...daemons);
    return daemons;
  }

  it('passes exit codes and output through, with the command as pid 2 in its working directory', async () => {
    const result = await run('echo "$$ $(pwd)"; echo err >&2; exit 7');
    expect(result).toMatchObject({ exitCode: 7, signal: null, timedOut: false, aborted: false });
    expect(result.output.text).toBe(`2 ${dir}\nerr\n`);
  });

  it('keeps the uid and gid of the harness', async () => {
    const result = await run('id -u; id -g');
    expect(result.output.text).toBe(`${process.getuid?.()}\n${process.getgid?.()}\n`);
  });

  it('reports a command killed by a signal as exit code 128+n, as its init shell sees it', async () => {
    const result = await run('kill -USR1 $$');
    expect(result).toMatchObject({ exitCode: 128 + 10, signal: null });
    expect(result.output.text).toBe('');
  });

  it('does not hand fd 3 to the command', async () => {
    const result = await run('[ -e /dev/fd/3 ] && echo has-fd-3 || echo no-fd-3');
    expect(result.output.text).toBe('no-fd-3\n');
  });

  it('on timeout sends SIGTERM to the command, which may clean up, and ends the rest', async () => {
    const marker = newMarker();
    const command = `trap 'echo cleaned up; exit 0' TERM; ${scrubbedDaemon(marker)} echo started; while :; do sleep 0.05; done`;
    const started = Date.now();
    const running = run(command, { timeoutMs: 700, killGraceMs: 5000 });
    const daemons = await findDaemons(marker, 30);
    const result = await running;
    expect(daemons.length).toBeGreaterThan(0);
    expect(result.timedOut).toBe(true);
    // The shell may also say that its `sleep` was terminated.
    expect(result.output.text).toMatch(/^started\n(Terminated\n)?cleaned up\n$/);
    // It obeyed SIGTERM: no waiting out the grace period.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it("gives the command's other processes their grace period after the command itself died of SIGTERM", async () => {
    // The shell dies of SIGTERM at once; its child traps it and takes a while to clean up.
    const child = `/bin/sh -c 'trap "echo cleaning up; sleep 0.3; echo cleaned up; exit 0" TERM; while :; do sleep 0.05; done'`;
    const result = await run(`${child} & echo started; wait`, { timeoutMs: 700, killGraceMs: 5000 });
    expect(result.timedOut).toBe(true);
    expect(result.output.text).toContain('started\n');
    expect(result.output.text).toContain('cleaning up\ncleaned up\n');
    // Once the child is done, the grace period ends: well before its 5 seconds.
    expect(result.durationMs).toBeLessThan(4000);
  });

  it('kills an agent that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const started = Date.now();
    const result = await run(`exec ${agent('stubborn')}`, { timeoutMs: 700, killGraceMs: 300 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(result.output.text).toBe('ready\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it.each([
    ['a setsid daemon', false],
    ['a double-forked daemon', true],
  ])('ends %s with a scrubbed environment when the command exits, with no sweep', async (_name, doubleFork) => {
    const marker = newMarker();
    const running = run(`${scrubbedDaemon(marker, doubleFork)} sleep 1; echo done`);
    // Seen from the host while the command runs, so that the test cannot pass vacuously: it ran with
    // no token in its environment, where no sweep could ever find it.
    const daemons = await findDaemons(marker, 100);
    expect(daemons.length).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${daemons[0]}/environ`, 'latin1')).not.toContain('GZ_BENCH');
    const result = await running;
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output.text).toBe('done\n');
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('ends the namespace when the caller aborts', async () => {
    const marker = newMarker();
    const controller = new AbortController();
    const running = run(`${scrubbedDaemon(marker)} exec sleep 300`, { signal: controller.signal });
    expect((await findDaemons(marker, 100)).length).toBeGreaterThan(0);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false });
    expect(pidsWithMarker(marker)).toEqual([]);
  });
});

describe.runIf(isRoot)('a pid namespace for an ordinary user (as nobody)', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild([
      'process/pid-namespace.ts',
      'process/find-on-path.ts',
      'process/namespace-init.ts',
    ]);
    // Probes as nobody, then runs a command that leaves a scrubbed daemon behind, directly with
    // the launcher's argv, and reports what it saw: the probe, the uid inside, and the daemon's
    // pids while the command ran and after it.
    await writeFile(
      join(modules.dir, 'as-user.mjs'),
      `import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { probePidNamespace } from './process/pid-namespace.js';
// The marker comes in two halves: no command line but the daemon's may hold it whole.
const [head, tail, command] = process.argv.slice(2);
const marker = head + tail;
const find = () => readdirSync('/proc').filter((p) => /^\\d+$/.test(p) && Number(p) !== process.pid).filter((p) => {
  try { return readFileSync('/proc/' + p + '/cmdline', 'utf8').includes(marker); } catch { return false; }
}).map(Number);
const probe = await probePidNamespace();
if (!probe.available) { process.stdout.write(JSON.stringify({ probe })); process.exit(0); }
const child = spawn(probe.argv[0], [...probe.argv.slice(1), '/bin/sh', '-c', command], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.on('data', (chunk) => { output += chunk; });
const seen = new Set();
const poll = setInterval(() => { for (const pid of find()) seen.add(pid); }, 20);
const code = await new Promise((resolve) => child.on('close', resolve));
clearInterval(poll);
process.stdout.write(JSON.stringify({ probe, code, output, seen: [...seen], after: find() }));
`,
    );
  });
  afterAll(() => modules?.dispose());

  it('runs the command as the same user, and ends its scrubbed daemon with it', async () => {
    const marker = newMarker();
    const command = `id -u; ${scrubbedDaemon(marker)} sleep 1; exit 4`;
    const { stdout } = await promisify(execFile)(
      'runuser',
      [
        '-u',
        'nobody',
        '--',
        process.execPath,
        join(modules.dir, 'as-user.mjs'),
        marker.slice(0, 6),
        marker.slice(6),
        command,
      ],
      { cwd: '/', timeout: 30_000 },
    );
    const report = JSON.parse(stdout) as {
      probe: { available: boolean; userNamespace?: boolean; reason?: string };
      code: number;
      output: string;
      seen: number[];
      after: number[];
    };
    // Where unprivileged user namespaces are refused, cases fall back to the sweep: nothing to see here.
    if (!report.probe.available) return;
    expect(report.probe.userNamespace).toBe(true);
    expect(report).toMatchObject({ code: 4, output: '65534\n', after: [] });
    expect(report.seen.length).toBeGreaterThan(0);
  }, 40_000);
});

describe.runIf(probe.available)('without a pid namespace', () => {
  it('a scrubbed daemon outlives its command: the namespace is what ends it above', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'gzb-pidns-')));
    const marker = newMarker();
    try {
      const result = await runIn(dir, `${scrubbedDaemon(marker)} sleep 0.5`);
      expect(result.exitCode).toBe(0);
      expect(pidsWithMarker(marker).length).toBeGreaterThan(0);
    } finally {
      // The daemon's shell leads a session and group of its own (setsid), with its `sleep` in it: the
      // group goes, or the `sleep` would outlive the test.
      const daemons = pidsWithMarker(marker);
      for (const pid of daemons) signalProcessGroup(pid, 'SIGKILL');
      killStrays(daemons);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
