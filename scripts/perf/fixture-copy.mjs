// Rows 3.x: setting up a fixture repository of 5,000 files / 50 MiB, against `cp -r` of the same tree.
// 3.1 times core's copyFixture alone (what a case does to set up its `repo`); 3.2, for information,
// what a whole case with `repo` costs over the same case without one.
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { copyFixture } from '@gz-bench/core';
import { changesRow } from './changes.mjs';
import { writeFixtureTree } from './fixture-tree.mjs';
import { scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { infoRow, measuredRow, ms, plural, times, unavailableRow } from './row.mjs';
import { firstLine, runGzBench, timedRun } from './spawn.mjs';
import { median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';
import { trajectoryCostRow } from './trajectory-cost.mjs';
import { TRIVIAL_CMD, trivialCase } from './trivial.mjs';

const TARGET = 1.0;
const CASES_WITH_REPO = 4;

/** Rows 3.1 and 3.2; 3.3 and 3.4, a trial's changes on the same fixture and its trajectory, against the copy. */
export async function fixtureRows(context) {
  const { options, work } = context;
  const dir = await work.dir('fixture');
  const fixture = join(dir, 'fixture');
  const files = scaled(options, 5000);
  const bytes = scaled(options, 50 * 2 ** 20);
  context.log(`3: writing a fixture of ${files} files, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  await writeFixtureTree(fixture, { files, bytes });
  const tree = `${plural(files, 'file')} / ${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;

  let copies = 0;
  const target = () => {
    copies += 1;
    return join(dir, `copy-${copies}`);
  };
  const cpOnce = async () => {
    const to = target();
    const run = await timedRun('cp', ['-r', fixture, to], { cwd: dir, env: context.env });
    if (run.code !== 0) throw new Error(`cp -r failed: ${firstLine(run)}`);
    await rm(to, { recursive: true, force: true });
    return run.wallMs;
  };
  const copyFixtureOnce = async () => {
    const to = target();
    await mkdir(to);
    const started = performance.now();
    const copy = await copyFixture(fixture, to);
    const wall = performance.now() - started;
    await rm(to, { recursive: true, force: true });
    if (copy.files !== files) throw new Error(`copyFixture copied ${copy.files} of ${files} files`);
    return wall;
  };

  // One untimed copy each first, so that both read the tree from the page cache.
  await cpOnce();
  await copyFixtureOnce();
  const cp = [];
  const core = [];
  for (let run = 0; run < options.cheapRuns; run += 1) {
    context.log(`3: copying the fixture, run ${run + 1} of ${options.cheapRuns}`);
    cp.push(await cpOnce());
    core.push(await copyFixtureOnce());
  }
  const cpMs = median(cp);
  const coreMs = median(core);
  const copyRow = measuredRow({
    id: '3.1',
    what: `Fixture of ${tree} set up for a case (core \`copyFixture\`), per copy`,
    baseline: `\`cp -r\` ${ms(cpMs)}`,
    figure: ms(coreMs),
    value: times(coreMs / cpMs),
    target: `≤ ${TARGET}× \`cp -r\``,
    met: coreMs / cpMs <= TARGET,
  });
  return [
    copyRow,
    await wholeCaseRow(context, dir, fixture, tree, cpMs),
    await changesRow(context, { dir, fixture, tree, copyMs: coreMs }),
    await trajectoryCostRow(context, { dir, copyMs: coreMs }),
  ];
}

/** Row 3.2: the cost a `repo` adds to a whole case run by the CLI, per case. */
async function wholeCaseRow(context, dir, fixture, tree, cpMs) {
  const { options } = context;
  const count = scaled(options, CASES_WITH_REPO);
  const what = `The same fixture as \`repo\` of a whole trivial case (\`gz-bench run\`, ${plural(count, 'case')}), added per case`;
  const withRepo = await writeSuites(dir, 'with-repo', manyCases('repo', count, trivialCase), 1, {
    repo: relative(dir, fixture),
  });
  const without = await writeSuites(dir, 'without-repo', manyCases('plain', count, trivialCase));
  const serial = context.flags.concurrency ? ['--concurrency', '1'] : [];
  const walls = { repo: [], plain: [] };
  // Two runs at most: the row is for information, and each run copies the tree four times.
  for (let run = 0; run < Math.min(2, options.runs); run += 1) {
    for (const [kind, suites] of [
      ['repo', withRepo],
      ['plain', without],
    ]) {
      context.log(`3: ${count} whole cases ${kind === 'repo' ? 'with' : 'without'} the fixture, run ${run + 1}`);
      const args = ['run', ...suites, '--cmd', TRIVIAL_CMD, '--sandbox', 'none', '--json', ...serial];
      const result = await runGzBench(args, { cwd: dir, env: context.env });
      const problem = runProblem(result, count);
      if (problem !== undefined)
        return unavailableRow({ id: '3.2', what, target: '—', reason: problem, missed: false });
      walls[kind].push(result.wallMs);
    }
  }
  const addedMs = (median(walls.repo) - median(walls.plain)) / count;
  return infoRow({
    id: '3.2',
    what: `${what} (${tree})`,
    baseline: `\`cp -r\` ${ms(cpMs)}`,
    figure: ms(addedMs),
    value: times(addedMs / cpMs),
  });
}
