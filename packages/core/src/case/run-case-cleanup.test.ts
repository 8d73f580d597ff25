import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compileForChild, coreSources } from '../process/test-support/child-modules.js';
import { agent } from '../process/test-support/processes.js';
import type { CaseResult } from '../report/model.js';
import { parseOwnedDirName } from '../workspace/owned-dirs.js';
import { removeTree } from '../workspace/remove-tree.js';
import { runCase } from './run-case.js';

// Cleaning up after a case is the harness's business: whatever the agent left, the case's result is
// its own, and what cannot be removed is said, not thrown.

const run = promisify(execFile);
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

let parent: string;
beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-run-cleanup-')));
});
afterEach(async () => {
  await removeTree(parent);
});

describe('runCase cleanup', () => {
  it('removes an area nested past PATH_MAX and keeps the result the checks gave', async () => {
    const result = await runCase(
      {
        id: 'deep',
        prompt: 'p',
        checks: [
          { kind: 'outputMatches', pattern: '^deep tree made$', flags: 'm' },
          { kind: 'fileExists', path: 'd'.repeat(255) },
        ],
      },
      { cmd: agent('deep-tree', '600', 'lock'), tmpDir: parent },
    );
    expect(result).toMatchObject({ passed: true, checkResults: [{ passed: true }, { passed: true }] });
    expect(result.warnings).toBeUndefined();
    expect(await readdir(parent)).toEqual([]);
  }, 30_000);
});

// Only an ordinary user meets an area it cannot remove: the harness runs as nobody, the test plants
// a directory of root's in the workspace while the agent waits.
describe.runIf(isRoot)('runCase cleanup as a non-root user', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild(await coreSources());
    await writeFile(
      join(modules.dir, 'run-case.mjs'),
      `import { runCase } from './case/run-case.js';
const result = await runCase(
  { id: 'stuck', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '^planted$', flags: 'm' }] },
  { cmd: 'while [ ! -e planted ]; do sleep 0.05; done; echo planted', tmpDir: process.argv[2] },
);
process.stdout.write(JSON.stringify({ pid: process.pid, result }));
`,
    );
  });
  afterAll(() => modules?.dispose());

  it('keeps the result, warns that the area remains, and leaves it named after its owner', async () => {
    await chmod(parent, 0o755);
    const home = join(parent, 'nobody');
    await mkdir(home);
    await chown(home, NOBODY, NOBODY);
    const child = run(process.execPath, [join(modules.dir, 'run-case.mjs'), home], {
      uid: NOBODY,
      gid: NOBODY,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    const area = join(home, await firstEntry(home));
    const workspace = join(area, 'workspace');
    await waitFor(() => existsSync(workspace));
    await mkdir(join(workspace, 'roots'));
    await writeFile(join(workspace, 'roots', 'file'), 'x');
    await writeFile(join(workspace, 'planted'), '');
    await chown(join(workspace, 'planted'), NOBODY, NOBODY);

    const { pid, result } = JSON.parse((await child).stdout) as { pid: number; result: CaseResult };
    expect(result).toMatchObject({ id: 'stuck', passed: true, checkResults: [{ passed: true }] });
    expect(result.error).toBeUndefined();
    expect(result.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the case area ${area} could not be removed \\(.*Permission denied\\); it is removed when this run ends, or by the next run$`,
        ),
      ),
    ]);
    expect(existsSync(join(workspace, 'roots', 'file'))).toBe(true);
    expect(parseOwnedDirName(relative(home, area))).toMatchObject({ kind: 'area', pid });
  }, 30_000);
});

async function firstEntry(dir: string): Promise<string> {
  let name: string | undefined;
  await waitFor(async () => {
    name = (await readdir(dir))[0];
    return name !== undefined;
  });
  return name as string;
}

async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await delay(25);
  }
}
