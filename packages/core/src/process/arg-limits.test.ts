import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envStringBytes, MAX_ARG_STRLEN } from './arg-limits.js';
import { pathOnlyEnv, runIn } from './test-support/processes.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-arg-limits-')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('envStringBytes', () => {
  it('counts NAME=value in UTF-8 bytes, with the NUL', () => {
    expect(envStringBytes('A', 'bc')).toBe(5);
    expect(envStringBytes('A', 'é✓')).toBe(2 + 2 + 3 + 1);
  });
});

// What exec(2) really accepts, so that the limits here are Linux's and not a guess.
describe.runIf(process.platform === 'linux')('the limits of exec on Linux', () => {
  const valueOfSize = (name: string, stringBytes: number) => 'x'.repeat(stringBytes - envStringBytes(name, ''));

  it('takes an environment string of exactly MAX_ARG_STRLEN bytes, and refuses one byte more', async () => {
    const fits = await runIn(dir, 'echo started', { env: pathOnlyEnv({ V: valueOfSize('V', MAX_ARG_STRLEN) }) });
    expect(fits).toMatchObject({ exitCode: 0, output: { text: 'started\n' } });
    const over = await runIn(dir, 'echo started', { env: pathOnlyEnv({ V: valueOfSize('V', MAX_ARG_STRLEN + 1) }) });
    expect(over.exitCode).toBeNull();
    expect(over.spawnError).toMatch(/E2BIG/);
  });

  it('names the environment variable over the limit, and the limit', async () => {
    const result = await runIn(dir, 'true', { env: pathOnlyEnv({ SMALL: 'x', BIG: 'y'.repeat(200_000) }) });
    expect(result.spawnError).toBe(
      "spawn E2BIG: the environment variable BIG is 200000 bytes, over Linux's 128 KiB limit for one environment variable",
    );
  });

  it('names a command line over the limit', async () => {
    const command = `: ${'z'.repeat(200_000)}`;
    const result = await runIn(dir, command);
    expect(result.spawnError).toBe(
      "spawn E2BIG: the command line is 200002 bytes, over Linux's 128 KiB limit for one argument",
    );
  });

  it('says when strings each within the limit add up to more than ARG_MAX, with the sizes', async () => {
    const argMax = Number(execFileSync('getconf', ['ARG_MAX'], { encoding: 'utf8' }).trim());
    const env = pathOnlyEnv();
    const count = Math.ceil(argMax / 100_000) + 1;
    for (let index = 0; index < count; index++) env[`V${index}`] = 'v'.repeat(100_000);
    const result = await runIn(dir, 'true', { env });
    const match = result.spawnError?.match(
      /^spawn E2BIG: the command's arguments and environment take (\d+) bytes \((\d+) environment variables, the largest (\w+) at 100000 bytes\), over the system's limit for both together \(ARG_MAX, (\d+) bytes here\)$/,
    );
    expect(match, result.spawnError).not.toBeNull();
    const [, taken, variables, largest, limit] = match ?? [];
    expect(Number(taken)).toBeGreaterThan(argMax);
    expect(Number(variables)).toBe(count + 1);
    expect(largest).toMatch(/^V\d+$/);
    expect(Number(limit)).toBe(argMax);
  });
});
