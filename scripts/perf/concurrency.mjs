// Rows 2.x: cases that each sleep 1 s, spread over 8 suite files, run at a concurrency limit, against
// the ideal ceil(cases / limit) × 1 s. The figure is the span of the cases, from the first agent's
// start to the last one's end, as the agents themselves note it: the run's fixed start-up is row 1.2's,
// and no start-up at all would leave that ideal out of reach. The whole run is shown beside it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  const what = `${plural(count, 'case')} of \`sleep 1\` over ${plural(files, 'suite file')}, \`--concurrency ${limit}\` (first agent's start to last agent's end)`;
  const targetText = `≤ ${target}× the ideal`;
  const dir = await work.dir(`concurrency-${limit}`);
  const suites = await writeSuites(
    dir,
    `sleep-${limit}`,
    manyCases('sleep', count, (caseId) => ({ id: caseId, prompt: 'Sleep for a second', checks: [] })),
    files,
  );
  const spans = [];
  const walls = [];
  for (let run = 0; run < options.runs; run += 1) {
    context.log(`2: ${count} × sleep 1 at concurrency ${limit}, run ${run + 1} of ${options.runs}`);
    // Outside the workspaces, which `--sandbox none` lets the agents write to: each appends a line
    // when it starts and when it ends, in one write each (O_APPEND keeps them whole).
    const marksFile = join(dir, `marks-${run + 1}.txt`);
    const cmd = `echo "start $(date +%s%N)" >> '${marksFile}'; sleep 1; echo "end $(date +%s%N)" >> '${marksFile}'`;
    const args = ['run', ...suites, '--cmd', cmd, '--concurrency', String(limit), '--sandbox', 'none', '--json'];
    const result = await runGzBench(args, { cwd: dir, env: context.env });
    const marks = await readSpan(marksFile);
    const problem = runProblem(result, count) ?? spanProblem(marks, count);
    if (problem !== undefined) return unavailableRow({ id, what, target: targetText, reason: problem });
    spans.push(marks.ms);
    walls.push(result.wallMs);
  }
  const span = median(spans);
  return measuredRow({
    id,
    what,
    baseline: `ideal ${seconds(idealMs)}`,
    figure: `${seconds(span)} (whole run ${seconds(median(walls))})`,
    value: times(span / idealMs),
    target: targetText,
    met: span / idealMs <= target,
  });
}

/** The agents' starts and ends in a marks file: how many of each, and the span from first to last in ms. */
async function readSpan(path) {
  const text = await readFile(path, 'utf8').catch(() => '');
  const marks = { start: [], end: [] };
  let origin;
  for (const line of text.split('\n')) {
    const [kind, ns] = line.split(' ');
    if ((kind !== 'start' && kind !== 'end') || !/^\d+$/.test(ns ?? '')) continue;
    // Nanoseconds since 1970 are beyond a double's precision; their differences are not.
    origin ??= BigInt(ns);
    marks[kind].push(Number(BigInt(ns) - origin) / 1e6);
  }
  const ms = marks.start.length === 0 ? 0 : Math.max(...marks.end) - Math.min(...marks.start);
  return { starts: marks.start.length, ends: marks.end.length, ms };
}

/** Why a run's times do not describe all its cases, if they do not. */
function spanProblem(span, count) {
  if (span.starts === count && span.ends === count) return undefined;
  return `the agents noted ${span.starts} starts and ${span.ends} ends of ${count} cases`;
}
