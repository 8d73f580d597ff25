import type { TestProject } from 'vitest/node';

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

/** Pools whose workers are Node processes, which take V8 flags; worker threads refuse them. */
const PROCESS_POOLS = new Set(['forks', 'vmForks']);

/** What this reads and writes of a project's resolved config, in Vitest 4.1 and 5. */
interface WorkerHeapConfig {
  pool?: unknown;
  execArgv?: string[];
}

/**
 * Gives the project's fork workers the young generation above, unless the user sized it (in the
 * project's `execArgv` or in NODE_OPTIONS, which a command-line flag would override).
 */
export function sizeWorkerHeap(project: TestProject, nodeOptions = process.env.NODE_OPTIONS): void {
  const config = project.config as WorkerHeapConfig;
  if (typeof config.pool !== 'string' || !PROCESS_POOLS.has(config.pool)) return;
  if (!Array.isArray(config.execArgv)) return;
  const named = (arg: string) => arg.startsWith(SEMI_SPACE_FLAG) || arg.startsWith('--max_semi_space_size');
  if (config.execArgv.some(named) || (nodeOptions ?? '').split(/\s+/).some(named)) return;
  config.execArgv.push(`${SEMI_SPACE_FLAG}=${WORKER_SEMI_SPACE_MB}`);
}
