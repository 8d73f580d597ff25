// What a `pnpm perf` run measures and where it writes, from its flags and environment:
//   --quick / GZ_BENCH_PERF_QUICK=1   one run of each measurement instead of several
//   --only=<groups>                   only these row groups (e.g. --only=2,4); the document is then not written
//   GZ_BENCH_PERF_SCALE=<0..1>        scales every size (case counts, fixture, output) down, for a smoke test
//   GZ_BENCH_PERF_OUT=<path>          where the document goes (default docs/performance.md)
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const USAGE =
  'usage: pnpm perf [--quick] [--only=1,2,3,4,5,6,7]  (env: GZ_BENCH_PERF_QUICK=1, GZ_BENCH_PERF_SCALE=0..1, GZ_BENCH_PERF_OUT=path)';

/** The row groups, by the first digit of their ids. */
export const GROUPS = ['1', '2', '3', '4', '5', '6', '7'];

/** The options of this run, or a usage error (one line) to print. */
export function readOptions(argv, env) {
  const unknown = argv.filter((arg) => arg !== '--quick' && !arg.startsWith('--only='));
  if (unknown.length > 0) return { error: `unknown argument ${unknown[0]}; ${USAGE}` };
  const onlyArg = argv.findLast((arg) => arg.startsWith('--only='));
  const only = onlyArg === undefined ? GROUPS : onlyArg.slice('--only='.length).split(',');
  const badGroup = only.find((group) => !GROUPS.includes(group));
  if (badGroup !== undefined)
    return { error: `--only takes row groups among ${GROUPS.join(',')}, got "${badGroup}"; ${USAGE}` };
  const quick = argv.includes('--quick') || /^(1|true|yes)$/i.test(env.GZ_BENCH_PERF_QUICK ?? '');
  const scale = env.GZ_BENCH_PERF_SCALE === undefined ? 1 : Number(env.GZ_BENCH_PERF_SCALE);
  if (!(scale > 0 && scale <= 1)) return { error: `GZ_BENCH_PERF_SCALE must be a number in (0, 1]; ${USAGE}` };
  return {
    quick,
    scale,
    only,
    // A partial table would replace the whole document: only a full run writes it, unless told where.
    out: env.GZ_BENCH_PERF_OUT ?? (onlyArg === undefined ? join(REPO_ROOT, 'docs', 'performance.md') : undefined),
    /** Runs of each timed measurement; the figure is their median. */
    runs: quick ? 1 : 3,
    /** Runs of the cheap measurements (the plain loop, copies, loading). */
    cheapRuns: quick ? 1 : 5,
  };
}

/** `size` scaled down by the run's scale, never below `floor`. */
export function scaled(options, size, floor = 1) {
  return Math.max(floor, Math.round(size * options.scale));
}
