import { execa, type Result } from 'execa';
import { CLI_BIN, VITEST_BIN } from './paths.js';

/** How a test runs the CLI or Vitest. */
export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** A command that runs the program as its arguments, e.g. `['runuser', '-u', 'nobody', '--']`. */
  via?: string[];
  /** Text on the program's stdin, through a pipe; without it stdin is closed. */
  input?: string;
  /** The gz-bench CLI to run instead of the checkout's bin, e.g. `[node, copy/bin/gz-bench.js]`. */
  cli?: string[];
}

/** execa's file and arguments for `argv`, run through `via` when given. */
function command(argv: string[], via: string[] = []): [string, string[]] {
  const [file = '', ...args] = [...via, ...argv];
  return [file, args];
}

/** This process's environment without the variables of the Vitest that runs these tests, which would confuse a nested one. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(VITEST|GZ_BENCH_)/.test(name)) env[name] = value;
  }
  return { NO_COLOR: '1', ...env, ...extra };
}

/** Runs the gz-bench CLI as a user would; never throws for a nonzero exit. */
export function runCli(args: string[], options: RunOptions): Promise<Result> {
  return execa(...command([...(options.cli ?? [CLI_BIN]), ...args], options.via), {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    extendEnv: false,
    reject: false,
    timeout: options.timeoutMs ?? 60_000,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
}

/** Runs `vitest <args>` in a project as a user would; never throws for a nonzero exit. */
export function runVitest(args: string[], options: RunOptions): Promise<Result> {
  return execa(...command([process.execPath, VITEST_BIN, ...args], options.via), {
    cwd: options.cwd,
    env: cleanEnv({ CI: 'true', ...options.env }),
    extendEnv: false,
    reject: false,
    timeout: options.timeoutMs ?? 60_000,
    stdin: 'ignore',
  });
}
