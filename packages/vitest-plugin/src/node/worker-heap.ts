import type { TestProject } from 'vitest/node';
import { PREFORK_POOL } from '../prefork/pool-name.js';
import { choseFlag, givenFlags } from './v8-flags.js';

/**
 * The young generation of a worker's heap, in MiB per semi-space. V8 grows it with the rate at which a
 * process allocates, up to 16 MiB per semi-space (32 MiB in all) on 64-bit Node: a worker running
 * cases four at a time for long enough reaches that, and keeps it, though what it holds between
 * cases stays at a few MiB. Workers mostly wait on agents; a small young generation costs them more
 * frequent, shorter scavenges, and keeps the run's memory flat in the number of cases it runs. It
 * also frees the buffers of an agent's output sooner, as they stream to its log.
 */
export const WORKER_SEMI_SPACE_MB = 1;

const SEMI_SPACE_FLAG = '--max-semi-space-size';

/**
 * V8's heap sizing for memory over speed: it grows the old generation less before collecting it. A
 * worker's live heap stays at some 15 MiB however many cases its file has, but what its cases leave
 * to collect (results, output chunks, process handles) made the heap grow with the file, by about
 * 20 MiB per worker from 100 to 1,000 cases. Workers mostly wait, and the run's time did not change.
 */
const SIZE_FLAG = '--optimize-for-size';

/**
 * Lets core collect the output buffers of a loud agent as they stream through, and what every 16
 * cases left in the old generation (see core's process/garbage.ts), rather than let V8 keep tens of
 * MiB of them waiting.
 */
const GC_FLAG = '--expose-gc';

/** Pools whose workers are Node processes, which take V8 flags; worker threads refuse them. */
const PROCESS_POOLS = new Set(['forks', 'vmForks', PREFORK_POOL]);

/** What this reads and writes of a project's resolved config, in Vitest 4.1 and 5. */
interface WorkerHeapConfig {
  pool?: unknown;
  execArgv?: string[];
}

/**
 * Gives the project's fork workers the young generation above, V8's sizing for memory and `gc()`,
 * each unless the user chose it (in the project's `execArgv` or in NODE_OPTIONS, which a command-line flag
 * would override).
 */
export function sizeWorkerHeap(project: TestProject, nodeOptions = process.env.NODE_OPTIONS): void {
  const config = project.config as WorkerHeapConfig;
  if (typeof config.pool !== 'string' || !PROCESS_POOLS.has(config.pool)) return;
  if (!Array.isArray(config.execArgv)) return;
  config.execArgv.push(...workerHeapFlags(config.execArgv, nodeOptions));
}

/** The flags sizeWorkerHeap adds to a project's `execArgv`: those of the above the user did not choose. */
export function workerHeapFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = givenFlags(execArgv, nodeOptions);
  return [
    ...(choseFlag(given, SEMI_SPACE_FLAG) ? [] : [`${SEMI_SPACE_FLAG}=${WORKER_SEMI_SPACE_MB}`]),
    ...(choseFlag(given, SIZE_FLAG) ? [] : [SIZE_FLAG]),
    ...(choseFlag(given, GC_FLAG) ? [] : [GC_FLAG]),
  ];
}
