import type { Writable } from 'node:stream';
import type { CommandLaunch } from '../process/command-launch.js';
import { runProcess } from '../process/run-process.js';
import type { ProcessResult } from '../process/types.js';
import type { CaseArea } from '../workspace/case-area.js';
import type { LeftoverSweep } from './leftover-sweep.js';

/** Runs one shell command of a case (setup, the agent, a command check) under the case's rules. */
export type CommandRunner = (line: string, options?: CommandOptions) => Promise<ProcessResult>;

/** What differs between the commands of one case. */
export interface CommandOptions {
  /** Receives the command's whole output (see `RunProcessOptions.log`); ended when the command is done. */
  log?: Writable;
  /** Bytes of output kept in memory at the head and at the tail. @default 1048576 */
  outputLimitBytes?: number;
  /** This command's environment instead of the case's (the agent's differs). @default the rules' `env` */
  env?: Record<string, string>;
  /** Receives the command's stdout alone (see `RunProcessOptions.stdoutLog`). */
  stdoutLog?: Writable;
  /** This command's bound instead of the case's (setup's and checks' may differ). @default the rules' `timeoutMs` */
  timeoutMs?: number;
  /** Ends this command (its whole process tree) when aborted, beside the case's own signal. */
  signal?: AbortSignal;
}

/** The rules every command of a case runs under. */
export interface CommandRules {
  area: CaseArea;
  env: Record<string, string>;
  timeoutMs: number;
  limits: { disk?: number; output?: number };
  /** How commands start, and what ends their leftovers (see `commandLaunch`). */
  launch: CommandLaunch;
  /** Told of every command that ran, for the token sweep where no pid namespace contains them. */
  leftovers: LeftoverSweep;
  signal?: AbortSignal;
  killGraceMs?: number;
}

/**
 * Binds the case's environment, timeout, limits and launch to a runner. When a command ends, its
 * process group has ended (the process layer) and, in a pid namespace, everything else it started;
 * without one, what left the group (setsid, double forks) is the `leftovers` sweep's to end.
 */
export function createCommandRunner(rules: CommandRules): CommandRunner {
  const { argv, infoFd, init } = rules.launch;
  const launcher = argv.length > 0 ? { argv, infoFd, init } : undefined;
  return async (line, options = {}) => {
    rules.leftovers.commandRan();
    const signal = signalOf(rules.signal, options.signal);
    return runProcess({
      command: line,
      cwd: rules.area.workspace,
      env: options.env ?? rules.env,
      timeoutMs: options.timeoutMs ?? rules.timeoutMs,
      ...(launcher && { sandbox: launcher }),
      ...(rules.limits.output !== undefined && { maxOutputBytes: rules.limits.output }),
      ...(rules.limits.disk !== undefined && { maxDiskBytes: { path: rules.area.root, limit: rules.limits.disk } }),
      ...(signal && { signal }),
      ...(rules.killGraceMs !== undefined && { killGraceMs: rules.killGraceMs }),
      ...(options.log && { log: options.log }),
      ...(options.stdoutLog && { stdoutLog: options.stdoutLog }),
      ...(options.outputLimitBytes !== undefined && { outputLimitBytes: options.outputLimitBytes }),
    });
  };
}

function signalOf(rules: AbortSignal | undefined, own: AbortSignal | undefined): AbortSignal | undefined {
  if (rules === undefined || own === undefined) return rules ?? own;
  return AbortSignal.any([rules, own]);
}
