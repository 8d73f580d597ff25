import type { SandboxMode } from '@gz-bench/core';

/** Options of the gz-bench Vitest plugin. Every field is optional; `GZ_BENCH_*` variables override them. */
export interface GzBenchOptions {
  /**
   * The agent command template, run by the system shell in each case's workspace. `{{prompt}}` is
   * the case prompt and `{{dir}}` the absolute workspace path. Overridden by `GZ_BENCH_CMD`.
   */
  cmd?: string;
  /** Globs of suite files, relative to the Vitest root. Overridden by `GZ_BENCH_INCLUDE` (comma-separated). @default ['**\/*.bench.json'] */
  include?: string | string[];
  /** Seconds that bound every command of every case, instead of each case's `timeoutSec`. Overridden by `GZ_BENCH_TIMEOUT`. */
  timeout?: number;
  /** Keep each case's workspace and report its path. Overridden by `GZ_BENCH_KEEP`. @default false */
  keep?: boolean;
  /** Path of the JSON report, relative to the Vitest root; `false` writes none. Overridden by `GZ_BENCH_REPORT`. @default '.gz-bench/report.json' */
  report?: string | false;
  /**
   * Cases that run at once in the whole run, across all suite files and projects (one limit, not one
   * per file). Agents mostly wait on a model, providers rate-limit, and a real agent CLI takes hundreds
   * of MB, hence a small default; `1` runs cases strictly one at a time. Overridden by `GZ_BENCH_CONCURRENCY`.
   * @default 4
   */
  concurrency?: number;
  /** Print the gz-bench table after Vitest's own output. Overridden by `GZ_BENCH_TABLE`. @default true */
  table?: boolean;
  /**
   * Environment variables of the harness that every case's commands receive, beside each case's own
   * `allowEnv` (API keys the agent needs). Everything else stays out. Overridden by `GZ_BENCH_ALLOW_ENV` (comma-separated).
   */
  allowEnv?: string[];
  /** Copy secret-looking files of fixture repositories into workspaces too. Overridden by `GZ_BENCH_ALLOW_SECRETS`. @default false */
  allowSecrets?: boolean;
  /**
   * Where the commands run: `bwrap` (bubblewrap: host read-only, only the case's files writable, private
   * processes, optional network cut), `none`, or `auto` (bwrap when it works here). Overridden by `GZ_BENCH_SANDBOX`. @default 'auto'
   */
  sandbox?: SandboxMode;
}

/** Plugin options with every default applied and every override resolved. */
export interface ResolvedGzBenchOptions {
  cmd: string | undefined;
  include: string[];
  timeout: number | undefined;
  keep: boolean;
  report: string | false;
  concurrency: number;
  table: boolean;
  allowEnv: string[];
  allowSecrets: boolean;
  sandbox: SandboxMode;
}

/** What the workers need of the options; it crosses to them through Vitest's `provide`. */
export type WorkerOptions = Pick<
  ResolvedGzBenchOptions,
  'cmd' | 'timeout' | 'keep' | 'concurrency' | 'allowEnv' | 'allowSecrets' | 'sandbox'
> & {
  /** The run's slot server (node/run-slots.ts); every case takes a slot there before it runs. */
  slots: SlotAddress | undefined;
};

/** How workers reach the run's slot server. */
export interface SlotAddress {
  /** A Unix socket path (on Linux in the abstract namespace: it starts with NUL), or a named pipe. */
  path: string;
  /** The run's token, which every request must carry. */
  token: string;
}

/** The key under which the worker options are provided to test workers. */
export const PROVIDE_KEY = 'gzBench';

declare module 'vitest' {
  export interface ProvidedContext {
    gzBench: WorkerOptions;
  }
}
