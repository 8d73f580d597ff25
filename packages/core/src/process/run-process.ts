import { type ChildProcess, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { explainArgumentLimit } from './arg-limits.js';
import { runCommandStartWork } from './command-start.js';
import { diskUsage, watchDiskUsage } from './disk-usage.js';
import { trackProcessGroup } from './exit-cleanup.js';
import { outputConsumed } from './garbage.js';
import { childrenMarked, groupRunsBeyond, signalProcessGroup, waitForProcessGroupExit } from './kill-tree.js';
import { INIT_NAME, launcherEnv } from './namespace-init.js';
import { DEFAULT_OUTPUT_LIMIT_BYTES, OutputBuffer } from './output-buffer.js';
import { OutputLogWriter } from './output-log.js';
import { killAndAwait, readSandboxInit, SANDBOX_INFO_FD } from './sandbox-init.js';
import type { DiskLimit, LimitExceeded, ProcessResult, RunProcessOptions } from './types.js';

export { outputTail } from './output-buffer.js';

/** Default time between SIGTERM and SIGKILL when a command is ended early. */
export const DEFAULT_KILL_GRACE_MS = 2000;

// After the shell exits and its group is killed, pipes close within milliseconds; this bounds the wait
// for a descendant that escaped the group (setsid) and still holds them.
const STREAM_DRAIN_MS = 500;
// After SIGKILL the kernel ends a process at once unless it is stuck in uninterruptible IO; this bounds
// the wait for its 'exit' so the promise settles even then.
const EXIT_AFTER_SIGKILL_MS = 5000;
// How often, in a grace period, the harness looks whether the command's processes are all gone.
const GRACE_POLL_MS = 25;
// setTimeout fires at once for delays above 2^31-1 ms; longer timeouts mean "no timeout".
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface ResolvedRunProcessOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  killGraceMs: number;
  outputLimitBytes: number;
  maxOutputBytes: number;
  maxDiskBytes: DiskLimit | undefined;
  log: Writable | undefined;
  stdoutLog: Writable | undefined;
  /** What to spawn: `/bin/sh -c command`, or the same behind a sandbox's argv. */
  file: string;
  args: string[];
  /** Whether fd 3 is a pipe on which the launcher reports its pid 1 (see sandbox-init.ts). */
  infoFd: boolean;
  /** Whether the command runs under gz-bench's init (namespace-init.ts). */
  init: boolean;
}

interface ChildExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

type TerminationReason = 'timeout' | 'abort' | 'limit';

/** Runs a shell command in its own process group and returns what it did; rejects only for harness faults. */
export async function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const settings = resolveRunProcessOptions(options);
  const output = new OutputBuffer(settings.outputLimitBytes);
  const log = settings.log === undefined ? undefined : new OutputLogWriter(settings.log, settings.maxOutputBytes);
  const stdoutLog =
    settings.stdoutLog === undefined ? undefined : new OutputLogWriter(settings.stdoutLog, settings.maxOutputBytes);
  const logs = { log, stdoutLog };
  if (settings.signal?.aborted) return notStarted(output, logs, { aborted: true });

  const startedAt = performance.now();
  let child: ChildProcess;
  try {
    child = spawn(settings.file, settings.args, {
      cwd: settings.cwd,
      // An init hands the command its locale back (see namespace-init.ts).
      env: settings.init ? launcherEnv(settings.env) : settings.env,
      // The shell (or the sandbox's bwrap) leads a new process group, so the whole tree can be signalled as one.
      detached: true,
      // A sandbox launcher gets one more pipe, on which bwrap reports its pid 1 (see sandbox-init.ts).
      stdio: settings.infoFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Synchronous failures: invalid arguments such as a NUL byte in the command or env, and exec's
    // E2BIG (Node throws every spawn error but a few, such as ENOENT, at once).
    const code = (error as NodeJS.ErrnoException).code;
    const spawnError = code === 'E2BIG' ? await explainE2big(error as Error, settings) : errorMessage(error);
    return notStarted(output, logs, { spawnError });
  }

  // Set once the group can be signalled; output arriving before that is checked right after.
  let checkOutputLimit = (): void => {};
  const streams = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null);
  log?.attach(streams);
  if (child.stdout !== null) stdoutLog?.attach([child.stdout]);
  const streamsClosed = Promise.all(
    streams.map((stream) =>
      collectInto(output, log, stream === child.stdout ? stdoutLog : undefined, () => checkOutputLimit())(stream),
    ),
  );
  const infoStream = settings.infoFd ? (child.stdio[SANDBOX_INFO_FD] as Readable | null) : null;
  const sandboxInit = infoStream === null ? Promise.resolve(undefined) : readSandboxInit(infoStream);
  const exited = waitForExit(child);

  const spawnFailure = await waitForSpawn(child);
  if (spawnFailure !== undefined) {
    for (const stream of streams) stream.destroy();
    infoStream?.destroy();
    return notStarted(output, logs, { spawnError: await describeSpawnError(spawnFailure, settings) });
  }
  // A successful spawn always has a pid; it doubles as the process group id.
  const groupId = child.pid as number;
  runCommandStartWork();

  const untrack = trackProcessGroup(groupId);
  const terminator = new GroupTerminator(groupId, settings.killGraceMs, settings.init);
  // A sandbox's processes run in a session of their own, led by its pid 1: that is the group SIGTERM
  // must reach. The launcher's own group holds only bwrap, which dies of SIGTERM and takes the sandbox
  // with it at once, the command unwarned.
  void sandboxInit.then((init) => {
    if (init !== undefined) terminator.politeGroupId = init.pid;
  });
  let limitExceeded: LimitExceeded | undefined;
  const endForLimit = (kind: LimitExceeded['kind'], limitBytes: number, observedBytes: number): void => {
    // The first reason to end the tree wins; a limit found after a timeout does not rewrite history.
    if (terminator.terminate('limit')) limitExceeded = { kind, limitBytes, observedBytes };
  };
  checkOutputLimit = () => {
    if (output.totalBytes > settings.maxOutputBytes) endForLimit('output', settings.maxOutputBytes, output.totalBytes);
  };
  checkOutputLimit();
  const disk = settings.maxDiskBytes;
  const stopDiskWatch =
    disk === undefined ? undefined : watchDiskUsage(disk, (bytes) => endForLimit('disk', disk.limit, bytes));
  const timer =
    Number.isFinite(settings.timeoutMs) && settings.timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => terminator.terminate('timeout'), Math.max(0, settings.timeoutMs))
      : undefined;
  const onAbort = (): void => {
    terminator.terminate('abort');
  };
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  // The signal may have fired while the shell was starting, before the listener existed.
  if (settings.signal?.aborted) onAbort();

  let exit: ChildExit | undefined;
  try {
    exit = await Promise.race([exited, terminator.killed.then(() => settleWithin(exited, EXIT_AFTER_SIGKILL_MS))]);
  } finally {
    clearTimeout(timer);
    settings.signal?.removeEventListener('abort', onAbort);
    checkOutputLimit = () => {};
    // Awaited so that no walk of the caller's directory is still running once the result is back.
    await stopDiskWatch?.();
  }

  // Whatever the shell left behind (`sleep 100 &`, a tree still in its grace period) ends now.
  await terminator.finish();
  // A command can write past the cap and exit between two polls: measure once more, now that nothing
  // of it can write any longer.
  if (disk !== undefined && terminator.reason === undefined) {
    const final = await diskUsage(disk.path, { stopAboveBytes: disk.limit });
    if (final.bytes > disk.limit) limitExceeded = { kind: 'disk', limitBytes: disk.limit, observedBytes: final.bytes };
  }
  // A sandbox's pid 1 is outside the group; it ends last, once every process in the sandbox has.
  const init = await settleWithin(sandboxInit, STREAM_DRAIN_MS);
  if (init !== undefined) await killAndAwait(init, Date.now() + EXIT_AFTER_SIGKILL_MS);
  infoStream?.destroy();
  untrack();
  await settleWithin(streamsClosed, STREAM_DRAIN_MS);
  for (const stream of streams) stream.destroy();
  const logOutcome = await log?.finish();
  const stdoutLogOutcome = await stdoutLog?.finish();

  return {
    exitCode: exit?.exitCode ?? null,
    signal: exit?.signal ?? null,
    timedOut: terminator.reason === 'timeout',
    aborted: terminator.reason === 'abort',
    durationMs: (exit?.at ?? performance.now()) - startedAt,
    output: output.snapshot(),
    ...(limitExceeded && { limitExceeded }),
    ...(logOutcome && { log: logOutcome }),
    ...(stdoutLogOutcome && { stdoutLog: stdoutLogOutcome }),
  };
}

/**
 * Ends a process group once: SIGTERM to all of it (or to the sandbox's group inside it), then SIGKILL
 * after the grace period to whatever still runs. `finish()` ends the group for good, early if its
 * members are gone before the grace ends.
 */
class GroupTerminator {
  reason: TerminationReason | undefined;
  /** The group SIGTERM goes to, when not the launcher's own (a sandbox's pid 1 leads its processes). */
  politeGroupId: number | undefined;
  readonly killed: Promise<void>;
  #markKilled!: () => void;
  #isKilled = false;
  #graceDeadline = 0;
  #graceTimer: NodeJS.Timeout | undefined;

  /** `init`: the command runs under gz-bench's init, which outlives it while it is being ended. */
  constructor(
    readonly groupId: number,
    readonly graceMs: number,
    readonly init: boolean,
  ) {
    this.killed = new Promise((resolve) => {
      this.#markKilled = resolve;
    });
  }

  /** Starts ending the group; false when it was already being ended for another reason. */
  terminate(reason: TerminationReason): boolean {
    if (this.reason !== undefined) return false;
    this.reason = reason;
    const group = this.politeGroupId ?? this.groupId;
    // Found while it still has its name: once the command is gone, it becomes `sleep`.
    const machinery = this.init ? this.#machinery(group) : undefined;
    signalProcessGroup(group, 'SIGTERM');
    this.#graceDeadline = Date.now() + this.graceMs;
    this.#graceTimer = setTimeout(() => this.#kill(), this.graceMs);
    if (machinery !== undefined) void this.#killOnceOnly(group, machinery);
    return true;
  }

  /** The group's leader (unshare, or bwrap's pid 1) and the init under it: the namespace, not the command. */
  #machinery(group: number): Set<number> {
    return new Set([group, ...childrenMarked(group, INIT_NAME)]);
  }

  /**
   * The init keeps the namespace while the command's other processes have their grace period; they
   * need no more of it once none of them runs.
   */
  async #killOnceOnly(group: number, machinery: Set<number>): Promise<void> {
    while (!this.#isKilled) {
      await delay(GRACE_POLL_MS);
      // The init may not have been forked yet when the end began.
      if (machinery.size === 1) for (const pid of this.#machinery(group)) machinery.add(pid);
      if (!this.#isKilled && !groupRunsBeyond(group, machinery)) this.#kill();
    }
  }

  async finish(): Promise<void> {
    // Descendants that got SIGTERM keep the rest of their grace period to clean up; a normally
    // exited shell's leftovers get none, as they were never asked to stop.
    if (this.reason !== undefined) await waitForProcessGroupExit(this.groupId, this.#graceDeadline);
    this.#kill();
    // SIGKILL is not instant for every member. In a bwrap sandbox, bwrap exits as soon as the
    // command does, while the sandbox's pid 1 (still in this group) is only then killing the rest
    // of the pid namespace, setsid daemons included: it counts as running until they are all gone.
    // Waiting for it means no process of the command outlives the result. Bounded, for processes
    // stuck in uninterruptible IO.
    await waitForProcessGroupExit(this.groupId, Date.now() + EXIT_AFTER_SIGKILL_MS);
  }

  #kill(): void {
    this.#isKilled = true;
    clearTimeout(this.#graceTimer);
    signalProcessGroup(this.groupId, 'SIGKILL');
    this.#markKilled();
  }
}

function resolveRunProcessOptions(options: RunProcessOptions): ResolvedRunProcessOptions {
  const sandboxArgv = options.sandbox?.argv;
  if (sandboxArgv !== undefined && (sandboxArgv[0] === undefined || sandboxArgv[0] === '')) {
    throw new RangeError('sandbox.argv must start with an executable');
  }
  assertLimit('maxOutputBytes', options.maxOutputBytes);
  assertLimit('maxDiskBytes.limit', options.maxDiskBytes?.limit);
  return {
    command: options.command,
    cwd: options.cwd,
    env: { ...options.env },
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    killGraceMs: Math.max(0, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS),
    outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
    maxOutputBytes: options.maxOutputBytes ?? Number.POSITIVE_INFINITY,
    // Copied, so that a caller changing its object mid-run cannot move the watched path.
    maxDiskBytes: options.maxDiskBytes && { ...options.maxDiskBytes },
    log: options.log,
    stdoutLog: options.stdoutLog,
    // A launcher that does not report on fd 3 must not get it: whatever it runs would inherit it.
    infoFd: sandboxArgv !== undefined && options.sandbox?.infoFd !== false,
    init: sandboxArgv !== undefined && options.sandbox?.init === true,
    file: sandboxArgv?.[0] ?? '/bin/sh',
    args:
      sandboxArgv === undefined ? ['-c', options.command] : [...sandboxArgv.slice(1), '/bin/sh', '-c', options.command],
  };
}

function assertLimit(name: string, value: number | undefined): void {
  if (value !== undefined && !(value >= 0)) {
    throw new RangeError(`${name} must be a number of bytes >= 0, got ${value}`);
  }
}

/**
 * Appends a stream's bytes to `output` and to the log in arrival order, calling `onAppend` after each
 * chunk; resolves when the stream closes. stdout and stderr share one handler order, so the log holds
 * exactly the interleaving that `output` does.
 */
function collectInto(
  output: OutputBuffer,
  log: OutputLogWriter | undefined,
  alsoTo: OutputLogWriter | undefined,
  onAppend: () => void,
): (stream: Readable) => Promise<void> {
  return (stream) =>
    new Promise((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        output.append(chunk);
        log?.write(chunk);
        alsoTo?.write(chunk);
        onAppend();
        outputConsumed(chunk.length);
      });
      // An error (e.g. from destroy) ends collection; the result reports what arrived until then.
      stream.on('error', () => resolve());
      stream.on('close', () => resolve());
    });
}

function waitForExit(child: ChildProcess): Promise<ChildExit> {
  return new Promise((resolve) => {
    child.once('exit', (exitCode, signal) => resolve({ exitCode, signal, at: performance.now() }));
  });
}

/** Resolves undefined once the child runs, or with the error that kept it from starting. */
function waitForSpawn(child: ChildProcess): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    child.once('spawn', () => resolve(undefined));
    // Only spawn failures are expected: we never use child.kill() or IPC, the other sources of
    // 'error'. The listener stays so that a stray later error cannot crash the harness as unhandled.
    child.on('error', (error) => resolve(error));
  });
}

async function describeSpawnError(error: NodeJS.ErrnoException, settings: ResolvedRunProcessOptions): Promise<string> {
  if (error.code === 'E2BIG') return explainE2big(error, settings);
  const cwd = settings.cwd;
  // A missing cwd surfaces as "spawn /bin/sh ENOENT", which points at the wrong path.
  const cwdProblem = await stat(cwd).then(
    (info) => (info.isDirectory() ? undefined : `working directory is not a directory: ${cwd}`),
    () => `working directory does not exist: ${cwd}`,
  );
  return cwdProblem === undefined ? error.message : `${cwdProblem} (${error.message})`;
}

/** "spawn E2BIG" names neither the limit nor what went over it: this says both. */
async function explainE2big(error: Error, settings: ResolvedRunProcessOptions): Promise<string> {
  const request = { argv: [settings.file, ...settings.args], env: settings.env, command: settings.command };
  return `${error.message}: ${await explainArgumentLimit(request)}`;
}

async function notStarted(
  output: OutputBuffer,
  logs: { log: OutputLogWriter | undefined; stdoutLog: OutputLogWriter | undefined },
  outcome: { aborted: true } | { spawnError: string },
): Promise<ProcessResult> {
  const logOutcome = await logs.log?.finish();
  const stdoutLogOutcome = await logs.stdoutLog?.finish();
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: 'aborted' in outcome,
    durationMs: 0,
    output: output.snapshot(),
    ...('spawnError' in outcome ? { spawnError: outcome.spawnError } : {}),
    ...(logOutcome && { log: logOutcome }),
    ...(stdoutLogOutcome && { stdoutLog: stdoutLogOutcome }),
  };
}

/** Resolves with the promise's value, or undefined after `ms`; the timer never outlives the wait. */
function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
