import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { processesWithEnv, waitUntilEnded } from './support/processes.js';
import { runCli } from './support/run.js';
import { suite } from './support/suite.js';

// `gz-bench run` starts its first Vitest worker before it loads Vitest (src/prefork/): Vitest's pool
// takes that worker when it was started exactly as Vitest starts one, and a CLI that ends without
// using it leaves no process behind. A marker in the CLI's environment finds every process it started.

const cleanup = cleanupAfterAll();
const USED = 'the worker started ahead is used';

async function project(files: Record<string, string | object> = {}) {
  const p = await cleanup.project({
    'one.bench.json': suite('one', [
      { id: 'done', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '^done$', flags: 'm' }] },
    ]),
    ...files,
  });
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  return { dir: p.dir, tmp };
}

/** Runs the CLI with a marker of its own; resolves with the result and the processes left with the marker. */
async function runMarked(args: string[], dir: string, env: Record<string, string>) {
  const marker = randomUUID();
  const result = await runCli(args, { cwd: dir, env: { NODE_DEBUG: 'gz-bench', GZ_PREFORK_TEST: marker, ...env } });
  const left = await waitUntilEnded(await processesWithEnv('GZ_PREFORK_TEST', marker));
  return { result, left };
}

describe('the first worker of gz-bench run, started while the CLI loads', () => {
  it('is the worker Vitest runs the cases in, and ends with the run', async () => {
    const { dir, tmp } = await project();
    const { result, left } = await runMarked(['run', 'one.bench.json', '--cmd', 'echo done', '--json'], dir, {
      TMPDIR: tmp,
    });
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toContain(USED);
    expect(JSON.parse(String(result.stdout)).results[0]).toMatchObject({ id: 'done', passed: true });
    expect(left).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('ends with a CLI that stops before Vitest starts: a usage error, an invalid suite', async () => {
    const { dir, tmp } = await project({ 'bad.bench.json': { name: 'bad', cases: [{ id: 'a' }] } });
    for (const args of [
      ['run', 'one.bench.json', '--no-such-flag'],
      ['run', 'bad.bench.json', '--cmd', 'true'],
    ]) {
      const { result, left } = await runMarked(args, dir, { TMPDIR: tmp });
      expect(result.exitCode).toBe(2);
      expect(String(result.stderr)).not.toContain(USED);
      expect(left).toEqual([]);
    }
  });

  it('is not started for another NODE_ENV, and the run forks its own', async () => {
    const { dir, tmp } = await project();
    const { result, left } = await runMarked(['run', 'one.bench.json', '--cmd', 'echo done'], dir, {
      TMPDIR: tmp,
      NODE_ENV: 'production',
    });
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).not.toContain('the worker started ahead');
    expect(left).toEqual([]);
  });
});
