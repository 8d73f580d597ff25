// The body of `pnpm perf` (scripts/perf.mjs checks first that the packages are built).
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname } from 'node:path';
import * as core from '@gz-bench/core';
import { concurrencyRows } from './concurrency.mjs';
import { fixtureRows } from './fixture-copy.mjs';
import { imageTrialRow } from './image-trial.mjs';
import { loadingRows } from './loading.mjs';
import { describeMachine, sandboxState } from './machine.mjs';
import { memoryRows } from './memory.mjs';
import { REPO_ROOT, readOptions } from './options.mjs';
import { watchOthers } from './others-load.mjs';
import { overheadRows } from './overhead.mjs';
import { renderDocument, renderTable } from './render.mjs';
import { measuredEnv, runGzBench } from './spawn.mjs';
import { toolCallRows } from './tool-calls.mjs';
import { trivialChangesRow } from './trivial-changes.mjs';
import { viewerRows } from './viewer.mjs';
import { vitestStartupRows } from './vitest-startup.mjs';
import { createWorkRoot, leftoverProcesses } from './workroot.mjs';

const options = readOptions(process.argv.slice(2), process.env);
if (options.error !== undefined) {
  process.stderr.write(`perf: ${options.error}\n`);
  process.exit(2);
}

const started = performance.now();
const elapsed = () => `${Math.round((performance.now() - started) / 1000)} s`;
const log = (message) => process.stderr.write(`perf [${elapsed()}]: ${message}\n`);
const others = watchOthers();
const work = await createWorkRoot();
try {
  const sandbox = await sandboxState();
  const machine = await describeMachine({ tmp: tmpdir(), sandbox, root: REPO_ROOT, core });
  const env = measuredEnv(work.tmp);
  const help = await runGzBench(['--help'], { cwd: work.root, env });
  // Flags of the CLI that only some versions have: the rows that need one say so where it is missing.
  const flags = { concurrency: help.stdout.includes('--concurrency'), logs: help.stdout.includes('--logs') };
  const context = { options, work, env, sandbox, log, flags };

  const groups = {
    1: async () => [
      ...(await overheadRows(context, 'none')),
      ...(await overheadRows(context, 'bwrap')),
      ...(await vitestStartupRows(context)),
      await trivialChangesRow(context),
      await imageTrialRow(context),
    ],
    2: () => concurrencyRows(context),
    3: () => fixtureRows(context),
    4: () => memoryRows(context),
    5: () => loadingRows(context),
    6: () => viewerRows(context),
    7: () => toolCallRows(context),
  };
  const rows = [];
  for (const group of options.only) rows.push(...(await groups[group]()));

  const notes = [
    ...busyNotes(others),
    `The run took ${elapsed()}.`,
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
  if (options.out === undefined) {
    log('only some rows were measured: docs/performance.md is left as it was (GZ_BENCH_PERF_OUT=path writes them)');
  } else {
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, renderDocument(table, notes));
    log(`wrote ${options.out}`);
  }
} catch (error) {
  log(`stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await work.remove();
}

/** How busy other work kept the machine during the run, and a warning when that makes figures noisy. */
function busyNotes(others) {
  const share = others.share();
  const said = `Other work on the machine used ${Math.round(share * 100)}% of its CPU time during the run.`;
  if (share <= 0.2) return [said];
  return [
    `${said} Wall times are inflated and noisy, and so are ratios, less: run it again on a quiet machine to compare.`,
  ];
}
