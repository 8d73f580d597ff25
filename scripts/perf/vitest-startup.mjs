// Row 1.5, for information: what Vitest alone takes to start and end, so that the start-up rows
// (1.2, 1.4) can be read as gz-bench's share and Vitest's. `vitest run` of one file with one empty
// test, in a project of its own, against `node` running an empty script: both whole processes.
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './options.mjs';
import { duration, infoRow } from './row.mjs';
import { firstLine, timedRun } from './spawn.mjs';
import { median } from './stats.mjs';

const VITEST_BIN = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** Row 1.5. */
export async function vitestStartupRows(context) {
  const { options, work } = context;
  const dir = await work.dir('vitest-startup');
  // The test imports `vitest`: the project resolves it from the repository's own install.
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'vitest.config.mjs'), 'export default { test: { include: ["empty.test.mjs"] } };\n');
  await writeFile(join(dir, 'empty.test.mjs'), "import { test } from 'vitest';\ntest('empty', () => {});\n");
  await writeFile(join(dir, 'empty.mjs'), '');

  const vitest = [];
  const node = [];
  for (let run = 0; run < options.cheapRuns; run += 1) {
    context.log(`1.5: Vitest's own start-up, run ${run + 1} of ${options.cheapRuns}`);
    const started = await timedRun(process.execPath, [VITEST_BIN, 'run', '--reporter=dot'], {
      cwd: dir,
      env: context.env,
    });
    if (started.code !== 0) throw new Error(`vitest run of an empty test failed: ${firstLine(started)}`);
    vitest.push(started.wallMs);
    const plain = await timedRun(process.execPath, ['empty.mjs'], { cwd: dir, env: context.env });
    node.push(plain.wallMs);
  }
  const over = median(vitest) - median(node);
  return [
    infoRow({
      id: '1.5',
      what: "Vitest's own start-up: `vitest run` of one empty test (whole process), for reading 1.2 and 1.4",
      baseline: `\`node\` of an empty script ${duration(median(node))}`,
      figure: duration(median(vitest)),
      value: `+${duration(over)}`,
    }),
  ];
}
