import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSuite } from './load.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-verify-dirs-'));
  await mkdir(join(dir, 'verify'));
  await mkdir(join(dir, 'repo', 'tests'), { recursive: true });
  await writeFile(join(dir, 'file.txt'), 'x');
  await symlink('verify', join(dir, 'linked'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function load(suite: Record<string, unknown>): Promise<unknown> {
  const file = join(dir, 's.bench.json');
  await writeFile(file, JSON.stringify({ name: 's', ...suite }));
  return loadSuite(file, { displayPath: 's.bench.json' });
}

const check = { kind: 'command', run: 'sh {{verify}}/run.sh' };

describe('verify directories of a suite', () => {
  it('accepts a directory beside the suite or inside the fixture', async () => {
    await expect(load({ verify: 'verify', cases: [{ id: 'a', prompt: 'p', checks: [check] }] })).resolves.toBeDefined();
    await expect(
      load({ repo: 'repo', cases: [{ id: 'a', prompt: 'p', verify: 'repo/tests', checks: [check] }] }),
    ).resolves.toBeDefined();
  });

  it.each([
    [
      { verify: 'missing', cases: [{ id: 'a', prompt: 'p', checks: [] }] },
      'verify: verifier directory not found: missing',
    ],
    [
      {
        cases: [
          { id: 'a', prompt: 'p', checks: [] },
          { id: 'b', prompt: 'p', verify: 'file.txt', checks: [] },
        ],
      },
      'cases[1].verify: verifier directory is not a directory: file.txt',
    ],
    [
      { verify: 'linked', cases: [{ id: 'a', prompt: 'p', checks: [] }] },
      'verify: verifier directory is a symlink: linked',
    ],
    [
      { repo: 'repo', verify: './repo/', cases: [{ id: 'a', prompt: 'p', checks: [] }] },
      'verify: the verifier directory is the fixture repository itself: ./repo/',
    ],
    [
      { cases: [{ id: 'a', prompt: 'p', checks: [check] }] },
      'cases[0].checks[0].run: {{verify}} needs a verify directory in the case or suite',
    ],
  ])('refuses %j', async (suite, message) => {
    await expect(load(suite)).rejects.toMatchObject({ name: 'SuiteError', message: expect.stringContaining(message) });
  });
});
