import { type ChildProcess, spawn } from 'node:child_process';
import { encodeMessage, type GuardedItem, type GuardianMessage } from './guardian-protocol.js';
import { GUARDIAN_SCRIPT } from './guardian-script.js';

// No code runs in a process that is SIGKILLed (the OOM killer, a CI runner cancelling a job, `kill -9`),
// so what its cases started would run on to their timeouts, and their areas would stay on disk. A
// guardian is a small separate process that each harness process starts the first time it has
// something to guard, and tells, through a pipe, what that is. The pipe closes when the harness
// process dies, however it dies, and the guardian then kills and removes what it was told of. Being a
// process of its own, it acts even when the harness's event loop is stuck in a long synchronous task.
// It runs detached, in a session of its own, so that a terminal's Ctrl-C or the kill of the harness's
// process group leaves it to clean up. It is a shell script (guardian-script.ts): one per Vitest worker
// and one for the main process, each about a megabyte of memory, where a `node` process took 45.

/** The guardian's name in its command line (`ps`), as its `$0`. */
export const GUARDIAN_NAME = 'gz-bench-guardian';

let guardian: ChildProcess | null | undefined;

/** Tells this process's guardian (started on first use) to guard `item` until `releaseGuarded`. */
export function guard(item: GuardedItem): void {
  send({ op: 'add', ...item });
}

/** Tells the guardian that `item` was dealt with. */
export function releaseGuarded(item: GuardedItem): void {
  // Nothing to release before anything was guarded; and no guardian is started just for that.
  if (guardian) send({ op: 'remove', ...item });
}

/**
 * Makes this process die with `pid`: once that process is gone, the guardian SIGKILLs this one and
 * cleans up after it. A Vitest worker calls it for the main process, whose death it would otherwise
 * not notice (forks keep running when their parent is killed).
 */
export function dieWith(pid: number): void {
  send({ op: 'watch', pid });
}

function send(message: GuardianMessage): void {
  const line = encodeMessage(message);
  // What the guardian would refuse is not sent; the exit handlers (exit-cleanup.ts) still cover it.
  if (line === undefined) return;
  const child = guardian === undefined ? startGuardian() : guardian;
  // A write to a pipe with room is made at once, so that even a process that dies right after
  // releasing an area (a kept one) has told its guardian.
  child?.stdin?.write(line);
}

function startGuardian(): ChildProcess | null {
  guardian = null;
  if (process.platform === 'win32') return null;
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', GUARDIAN_SCRIPT, GUARDIAN_NAME, 'run'], {
      detached: true,
      // At the root, so that it holds no directory of the harness's (a case's, say) as its cwd.
      cwd: '/',
      stdio: ['pipe', 'ignore', 'ignore'],
      // Nothing of the harness's environment: no case token, no secrets.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
  } catch {
    return null;
  }
  const disable = (): void => {
    guardian = null;
  };
  // A guardian that died or could not start leaves this process as it was without one.
  child.on('error', disable);
  child.on('exit', disable);
  child.stdin?.on('error', disable);
  // Neither the guardian nor its pipe keeps the harness process alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  guardian = child;
  return child;
}
