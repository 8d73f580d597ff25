import { INIT_ARGV } from './namespace-init.js';
import { CONTAINMENT_ENV, probePidNamespace } from './pid-namespace.js';
import { type SandboxArgvOptions, sandboxArgv } from './sandbox.js';

/**
 * What ends the processes a command leaves behind. `bwrap` and `pid-namespace`: the command's pid
 * namespace, which the kernel empties when the command ends, whatever its processes did. `sweep`: the
 * command's process group, then a scan of /proc for processes carrying the case's token.
 */
export type Containment = 'bwrap' | 'pid-namespace' | 'sweep';

/** How a case's commands are started: what goes before `/bin/sh -c <command>`, and what contains them. */
export interface CommandLaunch {
  containment: Containment;
  /** Executable and arguments put before `/bin/sh -c <command>`; empty when the shell runs as it is. */
  argv: string[];
  /** Whether the launcher reports its pid 1 on fd 3, which must then be a pipe (bwrap's `--info-fd`). */
  infoFd: boolean;
  /** Whether the command runs under gz-bench's init (namespace-init.ts), as `argv` ends with it. */
  init: boolean;
}

/** Where a case's commands run, and in which sandbox mode. */
export interface CommandLaunchOptions extends SandboxArgvOptions {
  /** The sandbox the case runs in, as `resolveSandbox` decided it. */
  sandbox: 'bwrap' | 'none';
  /** The harness's environment, read for `GZ_BENCH_CONTAINMENT`. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** What runs bwrap (an image's overlay mounter, which execs it); with sandbox `bwrap` only. */
  launcher?: readonly string[];
}

/**
 * The launch of a case's commands: bwrap's argv in the sandbox; without it, a pid namespace of their
 * own where this machine allows one (probed once per process), else a plain shell whose leftovers the
 * token sweep ends. `GZ_BENCH_CONTAINMENT=sweep` in `env` forces the latter. A benchmark that runs the
 * same commands without gz-bench starts `[...argv, '/bin/sh', '-c', command]` to compare like with like.
 */
export async function commandLaunch(options: CommandLaunchOptions): Promise<CommandLaunch> {
  if (options.sandbox === 'bwrap') {
    const { sandbox: _sandbox, env: _env, launcher = [], ...where } = options;
    return {
      containment: 'bwrap',
      argv: [...launcher, ...sandboxArgv(where), ...INIT_ARGV],
      infoFd: true,
      init: true,
    };
  }
  if ((options.env ?? process.env)[CONTAINMENT_ENV] === 'sweep') return sweepLaunch();
  const probe = await probePidNamespace();
  return probe.available
    ? { containment: 'pid-namespace', argv: [...probe.argv], infoFd: false, init: true }
    : sweepLaunch();
}

function sweepLaunch(): CommandLaunch {
  return { containment: 'sweep', argv: [], infoFd: false, init: false };
}
