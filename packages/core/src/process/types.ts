/** What a finished shell command left behind. A failing command is a result, never an exception. */
export interface ProcessResult {
  /** Exit code, or null when the process was ended by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended the process, if any. */
  signal: NodeJS.Signals | null;
  /** True when the timeout ended the command (its whole process tree was killed). */
  timedOut: boolean;
  /** True when the caller's AbortSignal ended the command. */
  aborted: boolean;
  /** Wall-clock time from spawn to exit. */
  durationMs: number;
  /** Combined stdout and stderr, bounded in memory. */
  output: CapturedOutput;
  /** Why the command could not be started at all (e.g. the cwd is gone). */
  spawnError?: string;
}

/** Combined stdout+stderr, kept as head and tail when it outgrows the limit. */
export interface CapturedOutput {
  /** Decoded text (invalid UTF-8 becomes U+FFFD); a marker line stands where bytes were dropped. */
  text: string;
  /** Every byte the command wrote to stdout and stderr. */
  totalBytes: number;
  /** Bytes between head and tail that were not kept. */
  droppedBytes: number;
}

/** How to run one shell command. */
export interface RunProcessOptions {
  /** Command line for the system shell (`/bin/sh -c`). */
  command: string;
  /** Working directory. */
  cwd: string;
  /** The complete environment of the command (not merged with process.env). */
  env: Record<string, string>;
  /** Kills the whole process tree after this many milliseconds. */
  timeoutMs: number;
  /** Kills the whole process tree when aborted. */
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL. @default 2000 */
  killGraceMs?: number;
  /** Bytes of output kept at the head and, again, at the tail. @default 1048576 */
  outputLimitBytes?: number;
}
