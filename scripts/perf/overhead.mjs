// Rows 1.x: the per-case overhead of the trivial case and the fixed start-up, per sandbox mode,
// against the plain loop (plain-loop.mjs) with the same containment.
//
// Method: both run N trivial cases for a few N (always 1, then scaled 20 and 40), each N
// several times; a least-squares line through the medians of wall time against N gives the cost
// per case (the slope) apart from the cost of starting (the intercept, a run of zero cases).
import * as core from '@gz-bench/core';
import { launchFor } from './containment.mjs';
import { scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { duration, measuredRow, ms, seconds, times, unavailableRow } from './row.mjs';
import { firstLine, runGzBench, runNodeScript } from './spawn.mjs';
import { fitLine, median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';
import { TRIVIAL_CMD, trivialCase } from './trivial.mjs';

const PER_CASE_TARGET = 1.5;
const STARTUP_TARGET_MS = 1000;

/** The case counts of the fit: 1 and the scaled 20 and 40, at least two distinct. */
function caseCounts(options) {
  const counts = [...new Set([1, ...[20, 40].map((n) => scaled(options, n))])];
  return counts.length >= 2 ? counts : [1, 2];
}

/** Rows 1.1–1.2 (`none`) or 1.3–1.4 (`bwrap`). */
export async function overheadRows(context, mode) {
  const first = mode === 'none' ? 1 : 3;
  const perCaseRow = { id: `1.${first}`, what: `Per-case overhead of the trivial case, \`--sandbox ${mode}\`` };
  const startupRow = { id: `1.${first + 1}`, what: `Fixed start-up of \`gz-bench run\`, \`--sandbox ${mode}\`` };
  const perCaseTarget = `≤ ${PER_CASE_TARGET}× the loop`;
  const startupTarget = `≤ ${seconds(STARTUP_TARGET_MS)} over the loop`;
  if (mode === 'bwrap' && !context.sandbox.available) {
    const reason = context.sandbox.reason;
    return [
      unavailableRow({ ...perCaseRow, target: perCaseTarget, reason, missed: false }),
      unavailableRow({ ...startupRow, target: startupTarget, reason, missed: false }),
    ];
  }

  const { options, work } = context;
  const dir = await work.dir(`overhead-${mode}`);
  const counts = caseCounts(options);
  const suites = new Map();
  for (const count of counts) {
    suites.set(count, await writeSuites(dir, `trivial-${count}`, manyCases('trivial', count, trivialCase)));
  }
  const serial = context.flags.concurrency ? ['--concurrency', '1'] : [];
  const launch = await launchFor(core, mode);
  const loopArgs = [JSON.stringify(launch.argv), launch.infoFd ? 'info-fd' : 'no-info-fd'];
  const walls = { harness: new Map(), loop: new Map() };
  for (const count of counts) {
    walls.harness.set(count, []);
    walls.loop.set(count, []);
  }

  // Interleaved, so that a busy spell of the machine falls on both.
  for (let run = 0; run < options.runs; run += 1) {
    for (const count of counts) {
      context.log(`1: ${mode}, ${count} cases, run ${run + 1} of ${options.runs}`);
      const args = ['run', ...suites.get(count), '--cmd', TRIVIAL_CMD, '--sandbox', mode, '--json', ...serial];
      const harness = await runGzBench(args, { cwd: dir, env: context.env });
      const problem = runProblem(harness, count);
      if (problem !== undefined) {
        return [
          unavailableRow({ ...perCaseRow, target: perCaseTarget, reason: problem }),
          unavailableRow({ ...startupRow, target: startupTarget, reason: problem }),
        ];
      }
      walls.harness.get(count).push(harness.wallMs);
      for (let loopRun = 0; loopRun < Math.ceil(options.cheapRuns / options.runs); loopRun += 1) {
        const loop = await runNodeScript('plain-loop.mjs', [String(count), ...loopArgs], {
          cwd: dir,
          env: context.env,
        });
        if (loop.code !== 0) throw new Error(`the plain loop failed: ${firstLine(loop)}`);
        walls.loop.get(count).push(loop.wallMs);
      }
    }
  }

  const lineOf = (byCount) => fitLine(counts.map((count) => [count, median(byCount.get(count))]));
  const harness = lineOf(walls.harness);
  const loop = lineOf(walls.loop);
  const ratio = harness.slope / loop.slope;
  const startupOver = harness.intercept - loop.intercept;
  const method = `slope over N = ${counts.join(', ')}${serial.length > 0 ? ', `--concurrency 1`' : ''}`;
  return [
    measuredRow({
      ...perCaseRow,
      what: `${perCaseRow.what} (${method})`,
      baseline: `${ms(loop.slope)}/case`,
      figure: `${ms(harness.slope)}/case`,
      value: times(ratio),
      target: perCaseTarget,
      met: ratio <= PER_CASE_TARGET,
    }),
    measuredRow({
      ...startupRow,
      what: `${startupRow.what} (intercept of the same fit)`,
      baseline: duration(loop.intercept),
      figure: duration(harness.intercept),
      value: `${startupOver >= 0 ? '+' : ''}${duration(startupOver)}`,
      target: startupTarget,
      met: startupOver <= STARTUP_TARGET_MS,
    }),
  ];
}
