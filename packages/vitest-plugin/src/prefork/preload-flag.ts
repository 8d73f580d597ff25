import type { TestProject } from 'vitest/node';
import { PREFORK_POOL } from './pool-name.js';

/** `--import` of preload.js. Chunks and entries sit at the same depth of dist/, so the path holds from both. */
export function preloadFlags(): string[] {
  return ['--import', new URL('../prefork/preload.js', import.meta.url).href];
}

/** Gives the workers of gz-bench's pool (`gz-bench run`) the preload, as the worker started ahead has it. */
export function preloadHarness(project: TestProject): void {
  const config = project.config as { pool?: unknown; execArgv?: string[] };
  if (config.pool !== PREFORK_POOL || !Array.isArray(config.execArgv)) return;
  config.execArgv.push(...preloadFlags());
}
