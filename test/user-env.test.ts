import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { runCli, runVitest } from './support/run.js';

// Vite and Vitest set variables of their own in every worker (NODE_ENV, TEST, VITEST, VITEST_MODE,
// VITEST_POOL_ID, VITEST_WORKER_ID, FORCE_TTY, and Vite's MODE, BASE_URL, DEV, PROD, SSR, the VITE_*
// of .env files, the config's test.env). A name the user lets through reaches the agent, setup and
// checks with the value of the process the user started, or not at all where the user had none.

const { project, removeLater } = cleanupAfterAll();

/** Every name Vite and Vitest set, and one that .env files give Vite's import.meta.env. */
const NAMES = [
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
  'VITE_FROM_DOTENV',
  'FROM_TEST_ENV',
];

/** What the user's shell sets; the other names it leaves unset. */
const USER_VALUES: Record<string, string> = {
  NODE_ENV: 'user-node-env',
  MODE: 'user-mode',
  BASE_URL: '/user/',
  DEV: 'user-dev',
  SSR: 'user-ssr',
  VITE_FROM_DOTENV: 'user-vite',
};

// Each command prints every name as `NAME=value` or `NAME unset`.
const PRINT = NAMES.map(
  (name) => `if [ -n "\${${name}+set}" ]; then echo "${name}=$${name}"; else echo "${name} unset"; fi`,
).join('; ');

function expected(): string[] {
  return NAMES.map((name) => (USER_VALUES[name] === undefined ? `${name} unset` : `${name}=${USER_VALUES[name]}`));
}

const SUITE = {
  name: 'user-env',
  allowEnv: [NAMES.join(',')],
  cases: [
    {
      id: 'sees',
      setup: [`(${PRINT}) > setup.txt`],
      prompt: 'print',
      checks: [{ kind: 'command', run: `(${PRINT}) > check.txt` }],
    },
  ],
};

/** The user's environment for the nested run: none of the names but those USER_VALUES sets. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = { ...USER_VALUES };
  // runCli and runVitest start from this process's environment, where this Vitest set its own.
  for (const name of NAMES) if (USER_VALUES[name] === undefined) env[name] = '';
  return env;
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** What each command printed, in the kept workspace that the report names. */
async function seen(reportText: string): Promise<Record<string, string[]>> {
  const report = JSON.parse(reportText) as { results: Array<{ workspace: string }> };
  const workspace = report.results[0]?.workspace ?? '';
  removeLater(workspace);
  const read = async (file: string) => (await readFile(join(workspace, file), 'utf8')).trim().split('\n');
  return { setup: await read('setup.txt'), agent: await read('agent.txt'), check: await read('check.txt') };
}

describe("the user's environment, not Vite's", () => {
  it.each(['gz-bench run', 'vitest run'])('reaches setup, the agent and checks under %s', async (how) => {
    const files = {
      'bench/env.bench.json': SUITE,
      '.env': 'VITE_FROM_DOTENV=from-dotenv-file\n',
      ...pluginProjectFiles({ cmd: `(${PRINT}) > agent.txt`, keep: true }),
    };
    const p = await project(files);
    // The config's test.env is Vitest's to set in workers too.
    await p.write(
      'vitest.config.ts',
      String(pluginProjectFiles({ cmd: `(${PRINT}) > agent.txt`, keep: true })['vitest.config.ts']).replace(
        'plugins:',
        "test: { env: { FROM_TEST_ENV: 'from-config' } }, plugins:",
      ),
    );
    const env = userEnv();
    // An empty value is still a value: unset them for real in the nested process.
    const unset = Object.keys(env).filter((name) => env[name] === '');
    const via = ['env', ...unset.flatMap((name) => ['-u', name]), '--'];
    const result =
      how === 'gz-bench run'
        ? await runCli(
            ['run', 'bench/env.bench.json', '--cmd', `(${PRINT}) > agent.txt`, '--keep', '--sandbox', 'none', '--json'],
            { cwd: p.dir, env, via, timeoutMs: 90_000 },
          )
        : await runVitest(['run'], { cwd: p.dir, env, via, timeoutMs: 90_000 });
    expect(result.exitCode, output(result)).toBe(0);
    const reportText =
      how === 'gz-bench run' ? String(result.stdout) : await readFile(join(p.dir, '.gz-bench', 'report.json'), 'utf8');
    const { setup, agent, check } = await seen(reportText);
    expect(agent).toEqual(expected());
    expect(setup).toEqual(expected());
    expect(check).toEqual(expected());
  });
});
