import { readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { execa, type Result } from 'execa';
import { REPO_ROOT } from '../support/paths.js';

// Shared by the consumer tests: the packed packages (made once per run by ./global-setup.ts), and
// running commands in a temp project outside the repository with an environment a user's shell would
// have, not the one `pnpm exec vitest` gives these tests.

/** The tarballs `pnpm pack` made of both packages, as global-setup.ts provides them. */
export interface PackedPackages {
  /** The temp directory that holds the tarballs. */
  dir: string;
  /** The version of both packages (they are released together). */
  version: string;
  /** Absolute path of gz-bench-core-<version>.tgz. */
  core: string;
  /** Absolute path of gz-bench-vitest-plugin-<version>.tgz. */
  plugin: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set only in the `consumer` project, whose globalSetup packs the packages; undefined elsewhere. */
    gzConsumerPack?: PackedPackages;
  }
}

/** The packages that users install, and the directory each lives in. */
export const PACKAGES = [
  { name: '@gz-bench/core', dir: 'packages/core', tarballPrefix: 'gz-bench-core' },
  { name: '@gz-bench/vitest-plugin', dir: 'packages/vitest-plugin', tarballPrefix: 'gz-bench-vitest-plugin' },
] as const;

/** A package.json, as far as these tests read it. */
export interface Manifest {
  name: string;
  version: string;
  [field: string]: unknown;
}

/** Reads a package.json of the repository. */
export function readRepoManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as Manifest;
}

/**
 * The environment of a command run "as a user would": this process's environment without what Vitest,
 * gz-bench, pnpm and npm scripts add (`VITEST*`, `GZ_BENCH_*`, `npm_*`, `pnpm_*`, `NODE_PATH`,
 * `NODE_OPTIONS`), without the repository's and relative directories (`./node_modules/.bin`) on PATH, and with `prependPath`
 * (a lane's Node) first on PATH.
 */
export function userEnv(
  options: { prependPath?: string; extra?: Record<string, string> } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(VITEST|GZ_BENCH_|NPM_|PNPM_|NODE_PATH$|NODE_OPTIONS$|INIT_CWD$)/i.test(name)) continue;
    env[name] = value;
  }
  const path = (env.PATH ?? '').split(delimiter).filter((entry) => isAbsolute(entry) && !entry.startsWith(REPO_ROOT));
  if (options.prependPath) path.unshift(options.prependPath);
  env.PATH = path.join(delimiter);
  return { ...env, NO_COLOR: '1', ...options.extra };
}

/** How `run` runs a command. */
export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Kills the command (its whole tree) when aborted, e.g. when the tests end early. */
  signal?: AbortSignal;
  /** A safety net only: the test or hook timeout is what bounds a step. */
  timeoutMs?: number;
}

/** Runs a command without a shell; never throws for a nonzero exit. */
export function run(file: string, args: string[], options: RunOptions): Promise<Result> {
  return execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: options.timeoutMs ?? 280_000,
    forceKillAfterDelay: 2_000,
    ...(options.signal ? { cancelSignal: options.signal } : {}),
  });
}

/** Throws with the command's output unless it exited 0; returns its stdout. */
export async function runOk(file: string, args: string[], options: RunOptions): Promise<string> {
  const result = await run(file, args, options);
  if (result.exitCode !== 0) throw new Error(describeResult(result));
  return String(result.stdout);
}

/** A readable account of a finished command, for assertion messages. */
export function describeResult(result: Result): string {
  const tail = (text: unknown) => {
    const value = String(text ?? '');
    return value.length > 4000 ? `…${value.slice(-4000)}` : value;
  };
  const how = result.timedOut ? 'timed out' : result.isCanceled ? 'was cancelled' : `exited ${result.exitCode}`;
  return `\`${result.command}\` in ${String(result.cwd)} ${how}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`;
}

/** Milliseconds since `start`, rounded. */
export function since(start: number): number {
  return Math.round(performance.now() - start);
}
