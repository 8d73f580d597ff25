import type { Writable } from 'node:stream';
import { runProcess } from '../process/run-process.js';
import { killByToken } from '../process/sweep.js';
import type { ProcessResult } from '../process/types.js';
import type { CaseArea } from '../workspace/case-area.js';

/** Runs one shell command of a case (setup, the agent, a command check) under the case's rules. */
export type CommandRunner = (line: string, options?: CommandOptions) => Promise<ProcessResult>;

/** What differs between the commands of one case. */
export interface CommandOptions {
  /** Receives the command's whole output (see `RunProcessOptions.log`); ended when the command is done. */
  log?: Writable;
  /** Bytes of output kept in memory at the head and at the tail. @default 1048576 */
  outputLimitBytes?: number;
}

/** The rules every command of a case runs under. */
export interface CommandRules {
  area: CaseArea;
  env: Record<string, string>;
  timeoutMs: number;
  limits: { disk?: number; output?: number };
  /** The bwrap argv prefix, when the case runs sandboxed. */
  sandboxArgv?: string[];
  signal?: AbortSignal;
  killGraceMs?: number;
}

/**
 * Binds the case's environment, timeout, limits and sandbox to a runner. When a command ends, so does
 * everything it started: its process group by the process layer, and what left the group (setsid,
 * double forks) by the case token in its environment.
 */
export function createCommandRunner(rules: CommandRules): CommandRunner {
  return async (line, options = {}) => {
    const result = await runProcess({
      command: line,
      cwd: rules.area.workspace,
      env: rules.env,
      timeoutMs: rules.timeoutMs,
      ...(rules.sandboxArgv && { sandbox: { argv: rules.sandboxArgv } }),
      ...(rules.limits.output !== undefined && { maxOutputBytes: rules.limits.output }),
      ...(rules.limits.disk !== undefined && { maxDiskBytes: { path: rules.area.root, limit: rules.limits.disk } }),
      ...(rules.signal && { signal: rules.signal }),
      ...(rules.killGraceMs !== undefined && { killGraceMs: rules.killGraceMs }),
      ...(options.log && { log: options.log }),
      ...(options.outputLimitBytes !== undefined && { outputLimitBytes: options.outputLimitBytes }),
    });
    await killByToken(rules.area.token);
    return result;
  };
}
