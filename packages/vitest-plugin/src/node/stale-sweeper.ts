import { cleanStaleAreas } from '@gz-bench/core';
import type { Reporter, Vitest } from 'vitest/node';

/** Marks the sweeper, so that the plugin adds one at most, even across projects and packages. */
const GZ_BENCH_SWEEPER = Symbol.for('gz-bench.stale-sweeper');

/**
 * Removes, at the end of every run, what cases of workers that died during it left behind (their
 * areas, and the processes carrying their tokens): a worker killed mid-case runs no cleanup, and its
 * guardian, which normally does it at once, may have been killed with it.
 */
export class StaleAreaSweeper implements Reporter {
  readonly [GZ_BENCH_SWEEPER] = true;
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(): Promise<void> {
    await sweepStaleAreas(this.vitest);
  }
}

/** Runs cleanStaleAreas on the temp dir, saying which directories it could not remove. */
export async function sweepStaleAreas(vitest: Vitest | undefined): Promise<void> {
  const { failed } = await cleanStaleAreas();
  for (const { path, reason } of failed) {
    vitest?.logger.warn(`gz-bench: could not remove ${path}, left by a run that ended early: ${reason}`);
  }
}

/** Adds the sweeper to Vitest's reporters unless one is there. */
export function addSweeperOnce(vitest: Vitest): void {
  const reporters = vitest.config.reporters as unknown[];
  const present = reporters.some((entry) => typeof entry === 'object' && entry !== null && GZ_BENCH_SWEEPER in entry);
  if (!present) reporters.push(new StaleAreaSweeper());
}
