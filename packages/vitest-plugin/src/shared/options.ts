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
  /** Cases of one suite file that run at once (Vitest's `maxConcurrency` caps it). Overridden by `GZ_BENCH_CONCURRENCY`. @default 1 */
  concurrency?: number;
  /** Print the gz-bench table after Vitest's own output. Overridden by `GZ_BENCH_TABLE`. @default true */
  table?: boolean;
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
}

/** What the workers need of the options; it crosses to them through Vitest's `provide`. */
export type WorkerOptions = Pick<ResolvedGzBenchOptions, 'cmd' | 'timeout' | 'keep' | 'concurrency'>;

/** The key under which the worker options are provided to test workers. */
export const PROVIDE_KEY = 'gzBench';

declare module 'vitest' {
  export interface ProvidedContext {
    gzBench: WorkerOptions;
  }
}
