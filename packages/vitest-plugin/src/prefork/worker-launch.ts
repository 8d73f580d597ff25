import { join } from 'node:path';
import { workerHeapFlags } from '../node/worker-heap.js';
import { preloadFlags } from './preload-flag.js';

/** How a Vitest fork worker is started: what a worker started ahead must match to stand in for one. */
export interface WorkerLaunch {
  /** Vitest's `workers/forks.js`. */
  entrypoint: string;
  execArgv: string[];
  env: Record<string, string>;
  /** The directory it starts in: the CLI's, which Vitest's fork inherits. */
  cwd: string;
}

/** What the CLI knows, before it loads Vitest, of how Vitest will start its workers. */
export interface LaunchInputs {
  /** The directory of the `vitest` package the CLI will load. */
  vitestDir: string;
  /** Its major version. */
  vitestMajor: number;
  /** The environment as the user gave it. */
  env: NodeJS.ProcessEnv;
  /** The CLI's own `execArgv`. */
  execArgv: readonly string[];
  /** Whether the CLI's stdout is a terminal. */
  stdoutIsTty: boolean;
  cwd: string;
}

// Vitest forwards these of its own process's flags to its workers.
const FORWARDED_FLAGS = /^--(cpu-prof|heap-prof|diagnostic-dir)/;

/**
 * How Vitest 4.1 and 5 will fork the first worker of a `gz-bench run`, or undefined where the CLI
 * cannot tell. Vitest forks `dist/workers/forks.js` with its own flags, the resolve conditions of the
 * Vite config and the project's `execArgv` (gz-bench's heap flags, see worker-heap.ts), in the
 * environment of the CLI plus its own variables and, in Vitest 4, Vite's `import.meta.env`. A guess that is wrong
 * costs only the worker started ahead: one that does not match exactly is not used (prefork.ts).
 */
export function predictWorkerLaunch(inputs: LaunchInputs): WorkerLaunch | undefined {
  const { env } = inputs;
  // Vite sets NODE_ENV to development where it is unset; production changes its conditions and env.
  if (env.NODE_ENV === 'production') return undefined;
  // Plug'n'Play changes how Vitest starts its workers.
  if (process.versions.pnp !== undefined) return undefined;
  const given = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return {
    entrypoint: join(inputs.vitestDir, 'dist', 'workers', 'forks.js'),
    execArgv: [
      ...inputs.execArgv.filter((flag) => FORWARDED_FLAGS.test(flag)),
      '--experimental-import-meta-resolve',
      '--require',
      join(inputs.vitestDir, 'suppress-warnings.cjs'),
      '--conditions',
      'node',
      '--conditions',
      'development',
      ...workerHeapFlags([], env.NODE_OPTIONS),
      ...preloadFlags(),
    ],
    env: {
      ...given,
      TEST: 'true',
      VITEST: 'true',
      NODE_ENV: env.NODE_ENV ?? 'development',
      VITEST_MODE: 'RUN',
      FORCE_TTY: inputs.stdoutIsTty ? 'true' : '',
      ...(inputs.vitestMajor < 5 && { BASE_URL: '/', DEV: '1', MODE: 'test', PROD: '' }),
    },
    cwd: inputs.cwd,
  };
}

/** Why a worker started as `ahead` cannot stand in for one started as `wanted`; undefined when it can. */
export function launchMismatch(ahead: WorkerLaunch, wanted: WorkerLaunch): string | undefined {
  if (ahead.entrypoint !== wanted.entrypoint) return `Vitest starts its workers from ${wanted.entrypoint}`;
  if (!sameList(ahead.execArgv, wanted.execArgv)) return `Vitest starts its workers with ${wanted.execArgv.join(' ')}`;
  if (ahead.cwd !== wanted.cwd) return `Vitest starts its workers in ${wanted.cwd}`;
  const variable = differingVariable(ahead.env, wanted.env);
  if (variable !== undefined) return `Vitest starts its workers with another ${variable}`;
  return undefined;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** The first variable, by name, that one environment has and the other has not, or has otherwise. */
function differingVariable(a: Record<string, string>, b: Record<string, string>): string | undefined {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.find((name) => a[name] !== b[name]);
}
