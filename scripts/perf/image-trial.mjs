// Row 1.7: how much later a trial starts when its case runs in an image (the bwrap engine: a fresh
// overlay over the unpacked root, the image's Env and WorkingDir) than in today's bwrap sandbox.
// The same trivial cases run by `gz-bench run --sandbox bwrap --concurrency 1` with
// `environment: { archive }` and without, interleaved, after one run that unpacks the image; the
// figure is the difference of the median wall times per case. The image is made of the host's own
// files, as the tests make theirs (packages/core/src/environment/test-support/host-image.ts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { REPO_ROOT, scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { measuredRow, ms, unavailableRow } from './row.mjs';
import { runGzBench } from './spawn.mjs';
import { median } from './stats.mjs';
import { manyCases, writeSuites } from './suites.mjs';
import { TRIVIAL_CMD, trivialCase } from './trivial.mjs';

const TARGET_MS = 50;

/** Row 1.7. */
export async function imageTrialRow(context) {
  const { options, work, sandbox } = context;
  const count = scaled(options, 40, 2);
  const what = `How much later a trial starts in an image, bwrap engine (${count} trivial cases, \`--sandbox bwrap\`, \`--concurrency 1\`: \`environment: { archive }\` against none)`;
  const target = `≤ ${TARGET_MS} ms/case`;
  if (!sandbox.available) return unavailableRow({ id: '1.7', what, target, reason: 'no working bwrap', missed: false });
  const dir = await work.dir('image-trial');
  await hostImage(join(dir, 'image-build'), join(dir, 'image.tar'));
  const env = { ...context.env, GZ_BENCH_CACHE_DIR: join(dir, 'cache') };
  const cases = manyCases('trivial', count, trivialCase);
  const suites = {
    image: await writeSuites(dir, 'in-image', cases, 1, { environment: { archive: 'image.tar' } }),
    host: await writeSuites(dir, 'on-host', cases),
  };
  const serial = context.flags.concurrency ? ['--concurrency', '1'] : [];
  const run = (kind) =>
    runGzBench(['run', ...suites[kind], '--cmd', TRIVIAL_CMD, '--sandbox', 'bwrap', '--json', ...serial], {
      cwd: dir,
      env,
    });
  // The first run unpacks the image into the store; what is measured is every run after it.
  const warm = await run('image');
  const warmProblem = runProblem(warm, count);
  if (warmProblem !== undefined) return unavailableRow({ id: '1.7', what, target, reason: warmProblem });
  const walls = { image: [], host: [] };
  for (let round = 0; round < options.cheapRuns; round += 1) {
    for (const kind of ['image', 'host']) {
      context.log(
        `1: ${count} trivial cases ${kind === 'image' ? 'in an image' : 'on the host'}, run ${round + 1} of ${options.cheapRuns}`,
      );
      const result = await run(kind);
      const problem = runProblem(result, count);
      if (problem !== undefined) return unavailableRow({ id: '1.7', what, target, reason: problem });
      walls[kind].push(result.wallMs);
    }
  }
  const later = (median(walls.image) - median(walls.host)) / count;
  return measuredRow({
    id: '1.7',
    what,
    baseline: `bwrap sandbox ${ms(median(walls.host) / count)}/case`,
    figure: `${ms(later)}/case later`,
    value: `${later >= 0 ? '+' : ''}${ms(later)}/case`,
    target,
    met: later <= TARGET_MS,
  });
}

/** Writes a docker-archive of host files to `file` with the tests' own builder, compiled for the run. */
async function hostImage(scratch, file) {
  const out = `${scratch}-builder.mjs`;
  await build({
    entryPoints: [join(REPO_ROOT, 'packages/core/src/environment/test-support/host-image.ts')],
    outfile: out,
    format: 'esm',
    platform: 'node',
    bundle: true,
    logLevel: 'error',
  });
  const { buildHostImage } = await import(pathToFileURL(out).href);
  await buildHostImage({ programs: ['/usr/bin/printf', '/usr/bin/test'] }, scratch, file);
}
