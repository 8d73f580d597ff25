// Rows 4.x: the peak resident memory of the whole harness (rss.mjs: the CLI, Vitest's workers, the
// guardians; not the agents), while an agent prints 1 GiB, and as the number of cases grows.
import { rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { scaled } from './options.mjs';
import { reportOf, runProblem } from './report.mjs';
import { measuredRow, mib, plural, unavailableRow } from './row.mjs';
import { sampleHarnessRss } from './rss.mjs';
import { runGzBench } from './spawn.mjs';
import { median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';
import { TRIVIAL_CMD, trivialCase } from './trivial.mjs';

const PEAK_TARGET = 200 * 2 ** 20;
const GROWTH_TARGET = 50 * 2 ** 20;
const MiB = 2 ** 20;

/**
 * Runs the CLI with `args` while sampling its harness; resolves with its peak RSS and what went wrong,
 * if anything: not all `expected` cases passed, or `inspect(run, dir)` found a problem. Where the CLI can keep full output logs (`--logs`), it
 * does, into a directory removed after `inspect`: the whole transcript goes through the harness to
 * disk, as the plugin's default has it.
 */
async function sampledRun(context, dir, { args, expected, inspect = async () => undefined }) {
  let sampler;
  const logs = join(dir, 'logs');
  const logArgs = context.flags.logs ? ['--logs', logs] : [];
  const run = await runGzBench([...args, ...logArgs], {
    cwd: dir,
    env: context.env,
    onSpawn: (pid) => {
      sampler = sampleHarnessRss(pid);
    },
  });
  const peak = sampler?.stop() ?? 0;
  const problem = runProblem(run, expected) ?? (await inspect(run, dir));
  await rm(logs, { recursive: true, force: true });
  return { peak, problem };
}

/** Rows 4.1 and 4.2. */
export async function memoryRows(context) {
  return [await loudAgentRow(context), await growthRow(context)];
}

async function loudAgentRow(context) {
  const { options, work } = context;
  const bytes = scaled(options, 2 ** 30);
  const size = bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : `${(bytes / MiB).toFixed(1)} MiB`;
  const what = `Peak RSS of the whole harness while an agent prints ${size} (\`--sandbox none\`${withLogs(context)})`;
  const target = `≤ ${mib(PEAK_TARGET)}`;
  const dir = await work.dir('memory-output');
  // The cap is set above the output, so that all of it goes through the harness whatever the default.
  const settings = { maxOutputMB: Math.ceil(bytes / MiB) + 16 };
  const loudCase = (id) => ({ id, prompt: 'Print a lot', checks: [{ kind: 'outputMatches', pattern: 'done' }] });
  const [suite] = await writeSuites(dir, 'loud', [loudCase('loud')], 1, settings);
  const loud = `head -c ${bytes} /dev/zero | tr '\\0' x; echo done`;

  const peaks = { quiet: [], loud: [] };
  for (let run = 0; run < options.runs; run += 1) {
    for (const [kind, cmd] of [
      ['quiet', 'echo done'],
      ['loud', loud],
    ]) {
      context.log(`4: an agent printing ${kind === 'loud' ? size : 'a line'}, run ${run + 1} of ${options.runs}`);
      const { peak, problem } = await sampledRun(context, dir, {
        args: ['run', suite, '--cmd', cmd, '--sandbox', 'none', '--json'],
        expected: 1,
        ...(kind === 'loud' && { inspect: (result, cwd) => outputProblem(context, result, cwd, bytes) }),
      });
      if (problem !== undefined) return unavailableRow({ id: '4.1', what, target, reason: problem });
      peaks[kind].push(peak);
    }
  }
  const peak = median(peaks.loud);
  return measuredRow({
    id: '4.1',
    what,
    baseline: `${mib(median(peaks.quiet))} (agent prints a line)`,
    figure: mib(peak),
    value: mib(peak),
    target,
    met: peak <= PEAK_TARGET,
  });
}

/** undefined when the agent's whole output went through the harness (and into its log, if kept). */
async function outputProblem(context, run, cwd, bytes) {
  const agent = reportOf(run).results?.[0]?.agent;
  if (agent?.outputBytes !== undefined && agent.outputBytes < bytes) {
    return `the agent's output stopped at ${agent.outputBytes} of ${bytes} bytes`;
  }
  if (!context.flags.logs) return undefined;
  if (typeof agent?.log !== 'string') return 'the report names no agent log';
  const logged = await stat(resolve(cwd, agent.log)).then(
    (stats) => stats.size,
    () => 0,
  );
  return logged < bytes ? `the agent log holds ${logged} of the ${bytes} bytes printed` : undefined;
}

async function growthRow(context) {
  const { options, work } = context;
  const few = scaled(options, 100);
  const many = Math.max(few + 1, scaled(options, 1000));
  const what = `Growth of the harness's peak RSS from ${few} to ${plural(many, 'trivial case')} over 8 suite files (\`--sandbox none\`, default concurrency${withLogs(context)})`;
  const target = `≤ ${mib(GROWTH_TARGET)}`;
  const dir = await work.dir('memory-growth');
  const suites = new Map();
  const samples = new Map();
  for (const count of [few, many]) {
    suites.set(count, await writeSuites(dir, `trivial-${count}`, manyCases('trivial', count, trivialCase), 8));
    samples.set(count, []);
  }
  // Interleaved, as the other rows: a peak depends on when the collector ran, and one run of each is noise.
  for (let run = 0; run < options.runs; run += 1) {
    for (const count of [few, many]) {
      context.log(`4: ${count} trivial cases, sampling memory, run ${run + 1} of ${options.runs}`);
      const { peak, problem } = await sampledRun(context, dir, {
        args: ['run', ...suites.get(count), '--cmd', TRIVIAL_CMD, '--sandbox', 'none', '--json'],
        expected: count,
      });
      if (problem !== undefined) return unavailableRow({ id: '4.2', what, target, reason: problem });
      samples.get(count).push(peak);
    }
  }
  const peaks = new Map([...samples].map(([count, values]) => [count, median(values)]));
  const growth = peaks.get(many) - peaks.get(few);
  return measuredRow({
    id: '4.2',
    what,
    baseline: `${mib(peaks.get(few))} at ${few}`,
    figure: `${mib(peaks.get(many))} at ${many}`,
    value: `${growth >= 0 ? '+' : ''}${mib(growth)}`,
    target,
    met: growth <= GROWTH_TARGET,
  });
}

/** How a row says that the runs kept full output logs. */
function withLogs(context) {
  return context.flags.logs ? ', `--logs`' : '';
}
