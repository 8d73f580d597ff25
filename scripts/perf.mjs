// `pnpm perf`: measures gz-bench's own cost against baselines of the same run, prints one table
// headed by the machine's description, and writes it to docs/performance.md (see that file and
// scripts/perf/). Uses the built packages: run `pnpm install` (or `pnpm build`) first.
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname } from 'node:path';
import * as core from '@gz-bench/core';
import { concurrencyRows } from './perf/concurrency.mjs';
import { fixtureRows } from './perf/fixture-copy.mjs';
import { loadingRows } from './perf/loading.mjs';
import { describeMachine, sandboxState } from './perf/machine.mjs';
import { memoryRows } from './perf/memory.mjs';
import { REPO_ROOT, readOptions } from './perf/options.mjs';
import { overheadRows } from './perf/overhead.mjs';
import { renderDocument, renderTable } from './perf/render.mjs';
import { measuredEnv, runGzBench } from './perf/spawn.mjs';
import { createWorkRoot, leftoverProcesses } from './perf/workroot.mjs';

const options = readOptions(process.argv.slice(2), process.env);
if (options.error !== undefined) {
  process.stderr.write(`perf: ${options.error}\n`);
  process.exit(2);
}

const log = (message) => process.stderr.write(`perf: ${message}\n`);
const work = await createWorkRoot();
try {
  const sandbox = await sandboxState();
  const machine = describeMachine({ tmp: tmpdir(), sandbox, root: REPO_ROOT, core });
  const env = measuredEnv(work.tmp);
  const help = await runGzBench(['--help'], { cwd: work.root, env });
  const context = { options, work, env, sandbox, log, concurrencyFlag: help.stdout.includes('--concurrency') };

  const rows = [
    ...(await overheadRows(context, 'none')),
    ...(await overheadRows(context, 'bwrap')),
    ...(await concurrencyRows(context)),
    ...(await fixtureRows(context)),
    ...(await memoryRows(context)),
    ...(await loadingRows(context)),
  ];

  const notes = [
    `Load average at the end: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(', ')}.`,
  ];
  const leftAreas = await work.leftovers();
  if (leftAreas.length > 0)
    notes.push(`The harness runs left ${leftAreas.length} entries in their TMPDIR: ${leftAreas.join(', ')}.`);
  const leftProcesses = leftoverProcesses(work.tmp);
  if (leftProcesses.length > 0)
    notes.push(`Processes of the harness runs still alive at the end: ${leftProcesses.join(', ')}.`);
  if (leftAreas.length === 0 && leftProcesses.length === 0) {
    notes.push('The harness runs left no process running and nothing in their TMPDIR.');
  }

  const table = renderTable(machine, rows, options);
  process.stdout.write(`${table}\n\n${notes.join('\n')}\n`);
  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, renderDocument(table, notes));
  log(`wrote ${options.out}`);
} catch (error) {
  log(`stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await work.remove();
}
