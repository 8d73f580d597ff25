import type { Writable } from 'node:stream';

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
  /** Set when a resource limit ended the command (its whole process tree was killed, as on a timeout). */
  limitExceeded?: LimitExceeded;
  /** What went to the `log` stream, when one was given. */
  log?: LogOutcome;
  /** What went to the `stdoutLog` stream, when one was given. */
  stdoutLog?: LogOutcome;
}

/** What a command's log holds once the command is done. */
export interface LogOutcome {
  /** Bytes written to the log: the whole output, or its first `maxOutputBytes`. */
  bytes: number;
  /** Why the log stopped short (e.g. `ENOSPC`); the command itself ran on. */
  error?: string;
}

/** Which limit ended a command, and what was seen when it did. */
export interface LimitExceeded {
  /** `output`: stdout+stderr bytes; `disk`: bytes of files under the watched path. */
  kind: 'output' | 'disk';
  /** The limit that was set. */
  limitBytes: number;
  /** What was measured when the limit was found exceeded (the command may have written a little more). */
  observedBytes: number;
}

/** A cap on the size of the files under one path, checked by polling while the command runs. */
export interface DiskLimit {
  /** The directory (or file) to measure, e.g. the case's area. */
  path: string;
  /** Bytes the files under `path` may add up to (sizes of regular files, symlinks not followed). */
  limit: number;
  /** Milliseconds between measurements. @default 500 */
  intervalMs?: number;
}

/** Runs the command behind a launcher: a sandbox, or a pid namespace of its own. */
export interface SandboxLaunch {
  /** Executable and arguments put before `/bin/sh -c <command>`, e.g. from `sandboxArgv()` or `commandLaunch()`. */
  argv: string[];
  /**
   * Whether the launcher reports its pid 1 on fd 3 (bwrap's `--info-fd 3`); fd 3 is then a pipe, and
   * the result waits for that process too. False for a launcher that does not (`unshare`), which
   * then gets no fd 3 at all. @default true
   */
  infoFd?: boolean;
  /**
   * Whether `argv` ends with gz-bench's init (`commandLaunch` puts it there), which outlives a command
   * being ended so that the rest of its processes get their grace period: the end of the grace period
   * then comes once nothing but the launcher and the init runs. @default false
   */
  init?: boolean;
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
  /**
   * Ends the whole process tree once stdout+stderr together exceed this many bytes. Unlike
   * `outputLimitBytes`, which only bounds what is kept, this stops the command. @default no limit
   */
  maxOutputBytes?: number;
  /** Ends the whole process tree once the files under a path exceed a size. @default no limit */
  maxDiskBytes?: DiskLimit;
  /**
   * Runs `argv[0] …argv[1..] /bin/sh -c <command>` instead of `/bin/sh -c <command>`, still as the
   * leader of a new process group. With bwrap's `--unshare-pid --die-with-parent`, ending the group
   * ends the whole sandbox, including processes that left the group with setsid(). The launcher gets
   * a pipe on fd 3: when it reports its pid 1 there (bwrap's `--info-fd 3`), the result also waits
   * until that process, and so the whole pid namespace, is gone.
   * @default no sandbox
   */
  sandbox?: SandboxLaunch;
  /**
   * Receives the whole output, stdout and stderr interleaved as they arrive (the same bytes, in the
   * same order, as `output`), at most `maxOutputBytes` of it. While it has more buffered than its
   * high-water mark, the command's pipes are paused. runProcess ends it before it returns.
   * @default no log
   */
  log?: Writable;
  /**
   * Receives stdout alone, at most `maxOutputBytes` of it, with the same backpressure: what an
   * agent's usage is read from, whole, with no stderr warning in the way of its JSON.
   * @default none
   */
  stdoutLog?: Writable;
}
