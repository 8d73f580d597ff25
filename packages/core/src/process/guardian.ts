import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeMessage, type GuardedItem, type GuardianMessage } from './guardian-protocol.js';

// No code runs in a process that is SIGKILLed (the OOM killer, a CI runner cancelling a job, `kill -9`),
// so what its cases started would run on to their timeouts, and their areas would stay on disk. A
// guardian is a small separate process (guardian-main.ts) that each harness process starts the first
// time it has something to guard, and tells, through a pipe, what that is. The pipe closes when the
// harness process dies, however it dies, and the guardian then kills and removes what it was told of.
// Being a process of its own, it acts even when the harness's event loop is stuck in a long
// synchronous task. It runs detached, in a session of its own, so that a terminal's Ctrl-C or the
// kill of the harness's process group leaves it to clean up.

// Next to this module in dist/; absent when the sources run untranspiled (the unit tests), where
// exit-cleanup.ts alone covers the ordinary ways of ending.
const GUARDIAN_ENTRY = fileURLToPath(new URL('./guardian-main.js', import.meta.url));

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
  const child = guardian === undefined ? startGuardian() : guardian;
  // A write to a pipe with room is made at once, so that even a process that dies right after
  // releasing an area (a kept one) has told its guardian.
  child?.stdin?.write(encodeMessage(message));
}

function startGuardian(): ChildProcess | null {
  guardian = null;
  if (!existsSync(GUARDIAN_ENTRY)) return null;
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [GUARDIAN_ENTRY], {
      detached: true,
      // At the root, so that it holds no directory of the harness's (a case's, say) as its cwd.
      cwd: '/',
      stdio: ['pipe', 'ignore', 'ignore'],
      // Nothing of the harness's environment: no case token, no secrets, no NODE_OPTIONS.
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
