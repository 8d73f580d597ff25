import { type ChildProcess, fork } from 'node:child_process';
import { debuglog } from 'node:util';
import { launchMismatch, type WorkerLaunch } from './worker-launch.js';

// A Vitest worker takes a Node start and Vitest's worker modules before its first test can start: some
// 250 ms on 2 cores, which it spends after the CLI has spent about 400 ms loading Vitest itself. The
// CLI starts that worker before it loads anything, so that both happen at once, and Vitest's pool
// takes it as its first fork (prefork-pool.ts). It is an ordinary Vitest fork worker, started as
// Vitest would start it; one that is not exactly that is not used.

/** `NODE_DEBUG=gz-bench` says whether the worker started ahead was used, and why not. */
const debug = debuglog('gz-bench');

interface Prefork {
  child: ChildProcess;
  launch: WorkerLaunch;
}

let waiting: Prefork | undefined;
let releasedOnExit = false;

/** Starts a Vitest worker as `launch` says, for the run's pool to take. */
export function startPrefork(launch: WorkerLaunch): void {
  releasePrefork();
  const child = fork(launch.entrypoint, [], {
    env: launch.env,
    execArgv: launch.execArgv,
    stdio: 'pipe',
    serialization: 'advanced',
  });
  // A worker that could not start is not taken (takePrefork looks); the error is Vitest's to report
  // when it starts its own.
  child.on('error', () => {});
  // Until the pool takes it, it must not keep the CLI running: `gz-bench run` that ends early (a
  // usage error, an invalid suite) exits at once, and the worker with it.
  holdLoosely(child, true);
  waiting = { child, launch };
  if (!releasedOnExit) process.once('exit', releasePrefork);
  releasedOnExit = true;
}

/**
 * The worker started ahead, when it can stand in for one that Vitest would start as `wanted`; it is
 * then the caller's. Otherwise it is ended. Either way no later call gets it.
 */
export function takePrefork(wanted: WorkerLaunch): ChildProcess | undefined {
  const held = waiting;
  waiting = undefined;
  if (held === undefined) return undefined;
  const { child } = held;
  const mismatch =
    child.exitCode !== null || child.signalCode !== null || !child.connected
      ? 'it ended'
      : launchMismatch(held.launch, wanted);
  if (mismatch !== undefined) {
    debug('the worker started ahead is not used: %s', mismatch);
    child.kill();
    return undefined;
  }
  holdLoosely(child, false);
  debug('the worker started ahead is used (pid %d)', child.pid);
  return child;
}

/** Ends the worker started ahead if nothing took it. */
export function releasePrefork(): void {
  const held = waiting;
  waiting = undefined;
  held?.child.kill();
}

/** Lets the CLI exit with `child` still running (`loose`), or keeps it running for it again. */
function holdLoosely(child: ChildProcess, loose: boolean): void {
  const handles = [child, child.channel, child.stdout, child.stderr] as (
    | { ref(): void; unref(): void }
    | null
    | undefined
  )[];
  for (const handle of handles) {
    if (loose) handle?.unref();
    else handle?.ref();
  }
}
