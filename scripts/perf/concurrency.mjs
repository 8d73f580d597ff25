// Rows 2.x: cases that each sleep 1 s, spread over 8 suite files, run at a concurrency limit: the
// whole `gz-bench run`, start-up included, against the ideal ceil(cases / limit) × 1 s.
import { scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { measuredRow, plural, seconds, times, unavailableRow } from './row.mjs';
import { runGzBench } from './spawn.mjs';
import { median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';

const SETTINGS = [
  { id: '2.1', cases: 64, limit: 16, target: 1.15 },
  { id: '2.2', cases: 256, limit: 64, target: 1.25 },
];
const FILES = 8;

/** Rows 2.1 and 2.2. */
export async function concurrencyRows(context) {
  const rows = [];
  for (const setting of SETTINGS) rows.push(await concurrencyRow(context, setting));
  return rows;
}

async function concurrencyRow(context, { id, cases, limit, target }) {
  const { options, work } = context;
  const count = scaled(options, cases);
  const idealMs = Math.ceil(count / limit) * 1000;
  const files = Math.min(FILES, count);
  const what = `${plural(count, 'case')} of \`sleep 1\` over ${plural(files, 'suite file')}, \`--concurrency ${limit}\` (whole run)`;
  const targetText = `≤ ${target}× the ideal`;
  const dir = await work.dir(`concurrency-${limit}`);
  const suites = await writeSuites(
    dir,
    `sleep-${limit}`,
    manyCases('sleep', count, (caseId) => ({ id: caseId, prompt: 'Sleep for a second', checks: [] })),
    files,
  );
  const args = ['run', ...suites, '--cmd', 'sleep 1', '--concurrency', String(limit), '--sandbox', 'none', '--json'];
  const walls = [];
  for (let run = 0; run < options.runs; run += 1) {
    context.log(`2: ${count} × sleep 1 at concurrency ${limit}, run ${run + 1} of ${options.runs}`);
    const result = await runGzBench(args, { cwd: dir, env: context.env });
    const problem = runProblem(result, count);
    if (problem !== undefined) return unavailableRow({ id, what, target: targetText, reason: problem });
    walls.push(result.wallMs);
  }
  const wall = median(walls);
  return measuredRow({
    id,
    what,
    baseline: `ideal ${seconds(idealMs)}`,
    figure: seconds(wall),
    value: times(wall / idealMs),
    target: targetText,
    met: wall / idealMs <= target,
  });
}
