import { readFileSync } from 'node:fs';

// Vite and Vitest set variables of their own in the main process and in every worker: `NODE_ENV`,
// `TEST`, `VITEST`, `VITEST_MODE`, `VITEST_POOL_ID`, `VITEST_WORKER_ID`, `VITEST_VM_POOL`, `FORCE_TTY`,
// and Vite's `import.meta.env` (`MODE`, `BASE_URL`, `DEV`, `PROD`, `SSR`, the `VITE_*` of .env files,
// and the config's `test.env`). A variable the user lets through to an agent must carry the value it has
// in the environment of the process the user started (`gz-bench`, `vitest`), not Vite's: `--allow-env
// MODE` must not give the agent `test`.

/** The names Vite and Vitest set, whatever the user's environment holds. */
export const VITE_SET_NAMES: readonly string[] = [
  'NODE_ENV',
  'TEST',
  'VITEST',
  'VITEST_MODE',
  'VITEST_POOL_ID',
  'VITEST_WORKER_ID',
  'VITEST_VM_POOL',
  'FORCE_TTY',
  'MODE',
  'BASE_URL',
  'DEV',
  'PROD',
  'SSR',
];

/** For each name, the user's value, or null where the user's environment does not set it. */
export type UserEnvOverrides = Record<string, string | null>;

// Taken when the plugin is first loaded: the fallback where the kernel's record cannot be read.
const loadedWith: NodeJS.ProcessEnv = { ...process.env };

/**
 * The environment this process was started with, as the kernel recorded it at exec
 * (`/proc/self/environ`): what the user's shell gave `gz-bench` or `vitest`, before Vitest or Vite
 * set anything. Elsewhere, the environment as it was when the plugin was loaded.
 */
export function startedEnvironment(read: (path: string) => Buffer = readFileSync): NodeJS.ProcessEnv {
  let raw: Buffer;
  try {
    raw = read('/proc/self/environ');
  } catch {
    return loadedWith;
  }
  const env: NodeJS.ProcessEnv = {};
  for (const entry of raw.toString('utf8').split('\0')) {
    const equals = entry.indexOf('=');
    if (equals > 0) env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return env;
}

/**
 * What the workers put back over their own environment, for every name Vite and Vitest set there
 * (`VITE_SET_NAMES` and the names of the project's `env`, which holds Vite's `import.meta.env` and the
 * config's `test.env`): the value the user started the run with, or null to unset it.
 */
export function userEnvOverrides(
  projectEnvNames: Iterable<string>,
  started: NodeJS.ProcessEnv = startedEnvironment(),
): UserEnvOverrides {
  const overrides: UserEnvOverrides = {};
  for (const name of new Set([...VITE_SET_NAMES, ...projectEnvNames])) overrides[name] = started[name] ?? null;
  return overrides;
}
