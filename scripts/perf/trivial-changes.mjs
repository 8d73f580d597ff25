// Row 1.6, for information: what recording a trial's changes adds to the trivial case. The same 40
// trivial cases run by `gz-bench run --sandbox none --concurrency 1` with the default `changes` and
// with `changes: false`, interleaved; the figure is the difference of the median wall times per case.
import { scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { infoRow, ms, unavailableRow } from './row.mjs';
import { runGzBench } from './spawn.mjs';
import { median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';
import { TRIVIAL_CMD, trivialCase } from './trivial.mjs';

/** Row 1.6. */
export async function trivialChangesRow(context) {
  const { options, work } = context;
  const count = scaled(options, 40, 2);
  const what = `What recording the changes adds to the trivial case (${count} cases, \`--sandbox none\`, \`--concurrency 1\`: default against \`changes: false\`)`;
  const dir = await work.dir('trivial-changes');
  const cases = manyCases('trivial', count, trivialCase);
  const suites = {
    on: await writeSuites(dir, 'changes-on', cases),
    off: await writeSuites(dir, 'changes-off', cases, 1, { changes: false }),
  };
  const serial = context.flags.concurrency ? ['--concurrency', '1'] : [];
  const walls = { on: [], off: [] };
  for (let run = 0; run < options.cheapRuns; run += 1) {
    for (const kind of ['on', 'off']) {
      context.log(`1: ${count} trivial cases, changes ${kind}, run ${run + 1} of ${options.cheapRuns}`);
      const args = ['run', ...suites[kind], '--cmd', TRIVIAL_CMD, '--sandbox', 'none', '--json', ...serial];
      const result = await runGzBench(args, { cwd: dir, env: context.env });
      const problem = runProblem(result, count);
      if (problem !== undefined)
        return unavailableRow({ id: '1.6', what, target: '—', reason: problem, missed: false });
      walls[kind].push(result.wallMs);
    }
  }
  const perCase = (median(walls.on) - median(walls.off)) / count;
  return infoRow({
    id: '1.6',
    what,
    baseline: `\`changes: false\` ${ms(median(walls.off) / count)}/case`,
    figure: `${ms(perCase)}/case more`,
    value: `${perCase >= 0 ? '+' : ''}${ms(perCase)}/case`,
  });
}
