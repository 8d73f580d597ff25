import type { ChildProcess } from 'node:child_process';
import { ForksPoolWorker, type PoolOptions, type PoolRunnerInitializer } from 'vitest/node';
import { PREFORK_POOL } from './pool-name.js';
import { takePrefork } from './prefork.js';

/**
 * Vitest's fork worker, whose first instance takes the worker the CLI started ahead (prefork.ts)
 * when it was started exactly as this one would be. Vitest 4.1 and 5 start a fork only if they have
 * none yet (`_fork ||= fork(…)`), then wire it up (output, errors) the same way whoever forked it;
 * a Vitest that forks anyway leaves the one started ahead unused, and it ends.
 */
class PreforkedForksPoolWorker extends ForksPoolWorker {
  override readonly name = PREFORK_POOL;

  override async start(): Promise<void> {
    const self = this as unknown as { _fork?: ChildProcess; fork: ChildProcess };
    const taken =
      self._fork === undefined
        ? takePrefork({
            entrypoint: this.entrypoint,
            execArgv: this.execArgv,
            env: definedEntries(this.env),
            cwd: process.cwd(),
          })
        : undefined;
    if (taken !== undefined) self._fork = taken;
    await super.start();
    if (taken !== undefined && self.fork !== taken) taken.kill();
  }
}

/** The pool of `gz-bench run`: Vitest's forks, the first of them started ahead when it can be. */
export function preforkPool(): PoolRunnerInitializer {
  return { name: PREFORK_POOL, createPoolWorker: (options: PoolOptions) => new PreforkedForksPoolWorker(options) };
}

function definedEntries(env: Partial<NodeJS.ProcessEnv>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
