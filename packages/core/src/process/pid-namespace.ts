import { spawn } from 'node:child_process';
import { findOnPath } from './find-on-path.js';
import { INIT_ARGV } from './namespace-init.js';

// Without the bwrap sandbox, a case's commands still run in a pid namespace of their own where the
// machine allows it, so that ending a command ends everything it started, in O(1): util-linux's
// `unshare --pid --fork --kill-child` forks a small init, pid 1 of the new namespace, which runs the
// command as pid 2 and exits with its status. When pid 1 exits, the kernel kills every other process
// of the namespace — setsid daemons, double forks, processes that scrubbed their environment alike —
// and unshare exits only once they are all gone. Should unshare itself be killed (it leads the
// command's process group, which every kill of the command reaches), `--kill-child` kills pid 1 too.
//
// The command runs under gz-bench's init (namespace-init.ts), never as pid 1 itself.
//
// Root creates the namespace directly. An ordinary user needs a user namespace around it
// (`--user --map-current-user`: the same uid and gid inside, and no capabilities once the command
// runs), which only works where unprivileged user namespaces are allowed; inside it, set-user-ID
// programs (sudo, su) gain no privileges. Where neither works, cases fall back to the token sweep.

/** Set to `sweep` in the harness's environment, cases without a sandbox use the token sweep alone. */
export const CONTAINMENT_ENV = 'GZ_BENCH_CONTAINMENT';

/** Whether commands can run in a pid namespace of their own here, and the launcher that makes one. */
export type PidNamespaceProbe =
  | {
      available: true;
      /** The argv put before `/bin/sh -c <command>`. */
      argv: string[];
      /** Whether a user namespace wraps it (an ordinary user's harness). */
      userNamespace: boolean;
    }
  | { available: false; reason: string };

const PROBE_TIMEOUT_MS = 10_000;

/** The launcher argv for `unshare` at `unsharePath`: with a user namespace for an ordinary user. */
export function pidNamespaceArgv(unsharePath: string, userNamespace: boolean): string[] {
  return [
    unsharePath,
    ...(userNamespace ? ['--user', '--map-current-user'] : []),
    '--pid',
    '--fork',
    '--kill-child',
    '--',
    ...INIT_ARGV,
  ];
}

let cachedProbe: Promise<PidNamespaceProbe> | undefined;

/** Tries, once per process, to run a command in a pid namespace of its own (see `probeUnshare`). */
export function probePidNamespace(): Promise<PidNamespaceProbe> {
  cachedProbe ??= probeUnshare(findOnPath('unshare', process.env.PATH ?? ''), process.getuid?.() === 0);
  return cachedProbe;
}

/**
 * Tries the given `unshare` (undefined: not installed) without caching: as root without a user
 * namespace first, then (and for everyone else only) with one. A launcher counts as working when
 * the command inside sees itself as pid 2 and its exit code comes back unchanged. Never rejects.
 */
export async function probeUnshare(unsharePath: string | undefined, asRoot: boolean): Promise<PidNamespaceProbe> {
  if (unsharePath === undefined) return { available: false, reason: 'unshare is not on the PATH' };
  const reasons: string[] = [];
  for (const userNamespace of asRoot ? [false, true] : [true]) {
    const argv = pidNamespaceArgv(unsharePath, userNamespace);
    const trial = await execute([...argv, '/bin/sh', '-c', 'echo $$; exit 3']);
    if (trial.code === 3 && trial.stdout === '2\n') return { available: true, argv, userNamespace };
    reasons.push(trial.problem ?? `unexpected result (exit ${trial.code}, output ${JSON.stringify(trial.stdout)})`);
  }
  return { available: false, reason: reasons.join('; ') };
}

interface Trial {
  code: number | null;
  stdout: string;
  problem?: string;
}

function execute(argv: string[]): Promise<Trial> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const settle = (trial: Trial) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(trial);
    };
    const child = spawn(argv[0] as string, argv.slice(1), {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle({ code: null, stdout, problem: `unshare did not finish within ${PROBE_TIMEOUT_MS / 1000} s` });
    }, PROBE_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => settle({ code: null, stdout, problem: error.message }));
    child.on('close', (code) => {
      const said = stderr
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line !== '');
      settle({ code, stdout, ...(said !== undefined && { problem: said }) });
    });
  });
}
