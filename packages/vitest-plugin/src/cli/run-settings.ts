import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  allowEnvProblem,
  type EngineMode,
  isBaselinePath,
  isEngineMode,
  isSandboxMode,
  type LoadedSuite,
  loadSuite,
  MAX_TIMEOUT_SEC,
  type SandboxMode,
  suitePathOf,
  taskFilesOf,
} from '@gz-bench/core';
import { readSuiteBaseline } from '../node/baseline-source.js';
import { DEFAULT_CONCURRENCY } from '../node/resolve-options.js';
import { assertRunnableSuitePath } from './suite-paths.js';
import { UsageError } from './usage-error.js';

/** The flags that `run` and `check-suite` share, read and checked. */
export interface RunSettings {
  timeout: number | undefined;
  allowEnv: string[];
  sandbox: SandboxMode;
  concurrency: number;
  /** `--base-image NAME=ARCHIVE`, the archives absolute. */
  baseImages: Record<string, string>;
  engine: EngineMode;
}

/** Reads `--timeout`, `--allow-env`, `--sandbox`, `--base-image` and `--concurrency` (or `GZ_BENCH_CONCURRENCY`). */
export function runSettings(values: {
  timeout?: string;
  'allow-env'?: string[];
  sandbox?: string;
  concurrency?: string;
  'base-image'?: string[];
  engine?: string;
}): RunSettings {
  const timeout = values.timeout === undefined ? undefined : parseTimeout(values.timeout);
  const allowEnv = values['allow-env'] ?? [];
  for (const entry of allowEnv) {
    const problem = allowEnvProblem(entry);
    if (problem !== undefined) throw new UsageError(`--allow-env: ${problem}`);
  }
  const sandbox = values.sandbox ?? 'auto';
  if (!isSandboxMode(sandbox)) throw new UsageError(`--sandbox must be auto, bwrap or none, got "${sandbox}"`);
  const concurrency = runConcurrency(values.concurrency, process.env.GZ_BENCH_CONCURRENCY);
  const engine = values.engine ?? process.env.GZ_BENCH_ENGINE ?? 'auto';
  if (!isEngineMode(engine)) throw new UsageError(`--engine must be auto, docker, podman or bwrap, got "${engine}"`);
  const baseImages = baseImageFlags(values['base-image'] ?? []);
  return { timeout, allowEnv, sandbox, concurrency, baseImages, engine };
}

/** `--base-image NAME=ARCHIVE`, each archive a file or directory that is there. */
function baseImageFlags(flags: readonly string[]): Record<string, string> {
  const baseImages: Record<string, string> = {};
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const name = flag.slice(0, at).trim();
    const archive = flag.slice(at + 1);
    if (at < 0 || name === '' || archive === '') {
      throw new UsageError(`--base-image takes NAME=ARCHIVE (python:3.12-slim=images/python.tar), got "${flag}"`);
    }
    if (!existsSync(archive)) throw new UsageError(`--base-image ${flag}: ${archive} is not there`);
    if (baseImages[name] !== undefined) throw new UsageError(`--base-image names ${name} twice`);
    baseImages[name] = resolve(archive);
  }
  return baseImages;
}

/** The suite files of a command line, each once, and the suites in them. */
export interface NamedSuites {
  /** Absolute path → the path as the user first wrote it. */
  named: Map<string, string>;
  /** The absolute paths, in the order given. */
  files: string[];
  suites: LoadedSuite[];
}

/**
 * Loads every suite file named, each once (as the user wrote it the first time), all of them
 * validated before anything runs: a bad suite is a usage error (exit 2), not a failed run.
 */
export async function loadNamedSuites(positionals: readonly string[]): Promise<NamedSuites> {
  const named = new Map<string, string>();
  // A glob such as bench/*.json names each suite's baseline file too: it goes with its suite, which
  // reads it. Named alone, it is refused by the loader, which says which suite to name instead.
  const expanded = await expandTaskDirs(positionals);
  const absolute = new Set(expanded.map((given) => resolve(given)));
  const chosen = expanded.filter((given) => !isBaselinePath(given) || !absolute.has(resolve(suitePathOf(given))));
  for (const given of chosen) if (!named.has(resolve(given))) named.set(resolve(given), given);
  for (const given of named.values()) await assertRunnableSuitePath(given);
  const suites = await Promise.all([...named.values()].map((given) => loadSuite(given)));
  // A baseline that cannot be used stops the run before it starts, as a bad suite does.
  await Promise.all([...named.values()].map((given) => readSuiteBaseline(given)));
  return { named, files: [...named.keys()], suites };
}

/**
 * Directories of Harbor and Terminal-Bench tasks named on the command line, as the task files in them:
 * Vitest runs files, each task's one test of its own, named by its directory.
 */
async function expandTaskDirs(positionals: readonly string[]): Promise<string[]> {
  const expanded: string[] = [];
  for (const given of positionals) {
    const isDir = (await stat(given).catch(() => undefined))?.isDirectory() === true;
    if (!isDir) expanded.push(given);
    else for (const { display } of await taskFilesOf(resolve(given), given)) expanded.push(display);
  }
  return expanded;
}

/** Cases at once: `--concurrency`, else `GZ_BENCH_CONCURRENCY`, else the plugin's default. */
function runConcurrency(flag: string | undefined, env: string | undefined): number {
  const [raw, name] = flag !== undefined ? [flag, '--concurrency'] : [env, 'GZ_BENCH_CONCURRENCY'];
  if (raw === undefined || raw === '') return DEFAULT_CONCURRENCY;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

function parseTimeout(raw: string): number {
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SEC || raw.trim() === '') {
    throw new UsageError(`--timeout must be a positive number of seconds up to ${MAX_TIMEOUT_SEC}, got "${raw}"`);
  }
  return seconds;
}
