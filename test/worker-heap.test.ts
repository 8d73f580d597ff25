import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginConfig, SCRIPTED_CMD } from './support/plugin-project.js';
import { runVitest } from './support/run.js';
import { suite } from './support/suite.js';

// The young generation of the plugin's fork workers, seen from inside one: a user's own test in the
// same project reads the flags its worker process was started with.

const cleanup = cleanupAfterAll();

const EXEC_ARGV_TEST = [
  "import { expect, test } from 'vitest';",
  "test('flags', () => { console.log('execArgv=' + JSON.stringify(process.execArgv)); expect(true).toBe(true); });",
  '',
].join('\n');

const benchFile = suite('one', [
  { id: 'done', prompt: "Reply with 'done'.", checks: [{ kind: 'outputMatches', pattern: 'done' }] },
]);

/** The execArgv the user's test printed. */
function workerArgv(result: Result): string[] {
  const line = String(result.stdout).match(/execArgv=(\[.*\])/)?.[1];
  return line === undefined ? [] : (JSON.parse(line) as string[]);
}

async function run(config: string, env: Record<string, string> = {}) {
  const p = await cleanup.project({
    'package.json': { name: 'bench-user', private: true, type: 'module' },
    'vitest.config.ts': config,
    'bench/one.bench.json': benchFile,
    'src/flags.test.ts': EXEC_ARGV_TEST,
  });
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  return runVitest(['run'], { cwd: p.dir, env: { TMPDIR: tmp, NODE_OPTIONS: '', ...env } });
}

describe('the young generation of fork workers', () => {
  it('is 1 MiB per semi-space', async ({ expect }) => {
    const result = await run(pluginConfig({ cmd: SCRIPTED_CMD }));
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(workerArgv(result)).toContain('--max-semi-space-size=1');
  });

  it("is the user's where they size it, in execArgv or NODE_OPTIONS", async ({ expect }) => {
    const own = pluginConfig({ cmd: SCRIPTED_CMD }).replace(
      'defineConfig({ plugins:',
      "defineConfig({ test: { execArgv: ['--max-semi-space-size=8'] }, plugins:",
    );
    const inConfig = await run(own);
    expect(inConfig.exitCode, String(inConfig.stderr)).toBe(0);
    expect(workerArgv(inConfig).filter((arg) => arg.includes('semi-space'))).toEqual(['--max-semi-space-size=8']);
    const inEnv = await run(pluginConfig({ cmd: SCRIPTED_CMD }), { NODE_OPTIONS: '--max-semi-space-size=4' });
    expect(inEnv.exitCode, String(inEnv.stderr)).toBe(0);
    expect(workerArgv(inEnv).filter((arg) => arg.includes('semi-space'))).toEqual([]);
  });
});
