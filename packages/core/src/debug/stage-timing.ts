// `GZ_BENCH_DEBUG=timing`: each process of a run prints, to stderr, when it reached each stage of its
// start-up and of the first cases, in ms since the CLI's (or Vitest's) process started, so that a slow
// start shows where it goes. The origin travels to Vitest's workers in the environment.

/** The debug topics asked for, comma-separated (`GZ_BENCH_DEBUG=timing`). */
export const DEBUG_ENV = 'GZ_BENCH_DEBUG';
/** The epoch time in ms (fractional) of the first process's start, inherited by the processes it starts. */
export const TIMING_ORIGIN_ENV = 'GZ_BENCH_TIMING_ORIGIN';

/** Stages a process prints at most: a long run prints its start-up and first cases, then stays quiet. */
const MAX_MARKS = 60;

let marks = 0;
let last: number | undefined;

/** Whether `GZ_BENCH_DEBUG` asks for timing. */
export function timingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env[DEBUG_ENV] ?? '').split(',').some((topic) => topic.trim() === 'timing');
}

/**
 * Makes this process the origin of the run's times, unless one it inherited already is; call as the
 * first thing a command does. Children started later inherit it through the environment.
 */
export function startTimingOrigin(env: NodeJS.ProcessEnv = process.env): void {
  if (!timingEnabled(env)) return;
  env[TIMING_ORIGIN_ENV] ??= String(performance.timeOrigin);
}

/** Prints `stage` with its time since the origin and since this process's previous stage. */
export function markStage(stage: string): void {
  if (marks >= MAX_MARKS || !timingEnabled()) return;
  marks += 1;
  const now = performance.timeOrigin + performance.now();
  const origin = Number(process.env[TIMING_ORIGIN_ENV] ?? performance.timeOrigin);
  const since = now - (Number.isFinite(origin) ? origin : performance.timeOrigin);
  const step = last === undefined ? '' : ` (+${(now - last).toFixed(1)})`;
  last = now;
  // Vitest names its workers in their environment; the rest is the process that runs Vitest.
  const role =
    process.env.VITEST_WORKER_ID === undefined && process.env.VITEST_POOL_ID === undefined ? 'main' : 'worker';
  process.stderr.write(`gz-bench timing ${since.toFixed(1).padStart(8)} ms${step}  ${role} ${process.pid}: ${stage}\n`);
}
