// Rows 2.x: cases that each sleep 1 s, spread over 8 suite files, run at a concurrency limit, against
// the ideal ceil(cases / limit) × 1 s. The figure is the span of the cases, from the first agent's
// start to the last one's end, as the agents themselves note it: the run's fixed start-up is row 1.2's,
// and no start-up at all would leave that ideal out of reach. The whole run is shown beside it.
// Rows 2.3 and 2.4 show, for information, the span of the same cases run by a plain loop
// (concurrent-loop.mjs) with the same containment: how near the ideal any harness gets on this machine.
// Rows 2.5 and 2.6 compare what a user waits for: the whole `gz-bench run`, start-up included, with
// the whole plain loop's process, from the same interleaved runs. The suite files are uneven (the
// n-th holds n shares of the cases), as real suites are.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as core from '@gz-bench/core';
import { launchFor } from './containment.mjs';
import { scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { infoRow, measuredRow, plural, seconds, times, unavailableRow } from './row.mjs';
import { firstLine, runGzBench, runNodeScript } from './spawn.mjs';
import { median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';

const SETTINGS = [
  { id: '2.1', floorId: '2.3', wholeId: '2.5', cases: 64, limit: 16, target: 1.15, wholeTarget: 1.3 },
  { id: '2.2', floorId: '2.4', wholeId: '2.6', cases: 256, limit: 64, target: 1.25, wholeTarget: 1.35 },
];
const FILES = 8;

/** Rows 2.1 and 2.2, then their floors, 2.3 and 2.4, then the whole runs, 2.5 and 2.6. */
export async function concurrencyRows(context) {
  const launch = await launchFor(core, 'none');
  const measured = [];
  const floors = [];
  const wholes = [];
  for (const setting of SETTINGS) {
    const { row, floor, whole } = await concurrencyRow(context, setting, launch);
    measured.push(row);
    floors.push(floor);
    wholes.push(whole);
  }
  return [...measured, ...floors, ...wholes];
}

/** The agent command of rows 2.x: it notes its start and end in `marksFile`, around its `sleep 1`. */
function sleepCommand(marksFile) {
  // Outside the workspaces, which `--sandbox none` lets the agents write to: each appends a line
  // when it starts and when it ends, in one write each (O_APPEND keeps them whole).
  return `echo "start $(date +%s%N)" >> '${marksFile}'; sleep 1; echo "end $(date +%s%N)" >> '${marksFile}'`;
}

async function concurrencyRow(context, { id, floorId, wholeId, cases, limit, target, wholeTarget }, launch) {
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
    {},
    { uneven: true },
  );
  const wholeWhat = `The whole \`gz-bench run\` of ${id}, start-up included, against the whole plain loop of ${floorId}`;
  const wholeTargetText = `≤ ${wholeTarget}× the loop`;
  const wholeUnavailable = (reason) =>
    unavailableRow({ id: wholeId, what: wholeWhat, target: wholeTargetText, reason });
  const floorWhat = `The cases of ${id} run by a plain loop, ${limit} at once, with the same containment (first agent's start to last agent's end)`;
  const floorUnavailable = (reason) =>
    unavailableRow({ id: floorId, what: floorWhat, target: '—', reason, missed: false });
  const spans = [];
  const walls = [];
  const floorSpans = [];
  const floorWalls = [];
  let floorProblem;
  // Interleaved, so that a busy spell of the machine falls on both.
  for (let run = 0; run < options.runs; run += 1) {
    context.log(`2: ${count} × sleep 1 at concurrency ${limit}, run ${run + 1} of ${options.runs}`);
    const marksFile = join(dir, `marks-${run + 1}.txt`);
    const cmd = sleepCommand(marksFile);
    const args = ['run', ...suites, '--cmd', cmd, '--concurrency', String(limit), '--sandbox', 'none', '--json'];
    const result = await runGzBench(args, { cwd: dir, env: context.env });
    const marks = await readSpan(marksFile);
    const problem = runProblem(result, count) ?? spanProblem(marks, count);
    if (problem !== undefined) {
      return {
        row: unavailableRow({ id, what, target: targetText, reason: problem }),
        floor: floorUnavailable('its row was not measured'),
        whole: wholeUnavailable('its row was not measured'),
      };
    }
    spans.push(marks.ms);
    walls.push(result.wallMs);

    const floorMarks = join(dir, `loop-marks-${run + 1}.txt`);
    const loopArgs = [String(count), String(limit), JSON.stringify(launch.argv), sleepCommand(floorMarks)];
    const loop = await runNodeScript('concurrent-loop.mjs', loopArgs, { cwd: dir, env: context.env });
    const loopMarks = await readSpan(floorMarks);
    floorProblem ??= loop.code !== 0 ? `the plain loop failed: ${firstLine(loop)}` : spanProblem(loopMarks, count);
    floorSpans.push(loopMarks.ms);
    floorWalls.push(loop.wallMs);
  }
  const span = median(spans);
  const row = measuredRow({
    id,
    what,
    baseline: `ideal ${seconds(idealMs)}`,
    figure: `${seconds(span)} (whole run ${seconds(median(walls))})`,
    value: times(span / idealMs),
    target: targetText,
    met: span / idealMs <= target,
  });
  if (floorProblem !== undefined) {
    return { row, floor: floorUnavailable(floorProblem), whole: wholeUnavailable(floorProblem) };
  }
  const floorSpan = median(floorSpans);
  const floor = infoRow({
    id: floorId,
    what: floorWhat,
    baseline: `ideal ${seconds(idealMs)}`,
    figure: `${seconds(floorSpan)} (gz-bench's span ${times(span / floorSpan)} of it)`,
    value: times(floorSpan / idealMs),
  });
  const wall = median(walls);
  const floorWall = median(floorWalls);
  const whole = measuredRow({
    id: wholeId,
    what: wholeWhat,
    baseline: `plain loop ${seconds(floorWall)}`,
    figure: seconds(wall),
    value: times(wall / floorWall),
    target: wholeTargetText,
    met: wall / floorWall <= wholeTarget,
  });
  return { row, floor, whole };
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
