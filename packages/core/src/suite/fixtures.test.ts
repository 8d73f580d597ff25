import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SuiteError } from './errors.js';
import { loadSuite } from './load.js';

// Counts the metadata calls the loader makes, to show that the fixture checks of a large suite ask
// each question once; the calls themselves still reach the real file system.
const fsCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const counted =
    <A extends unknown[], R>(call: (...args: A) => R) =>
    (...args: A): R => {
      fsCalls.count += 1;
      return call(...args);
    };
  return { ...fs, lstat: counted(fs.lstat), stat: counted(fs.stat) };
});

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-fixtures-'));
  await makeRepo('repo');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function makeRepo(name: string): Promise<void> {
  await mkdir(join(dir, name, 'test'), { recursive: true });
  await mkdir(join(dir, name, 'checks'), { recursive: true });
  await writeFile(join(dir, name, 'test', 'sum.test.js'), 'ok');
  await writeFile(join(dir, name, 'checks', 'run.sh'), 'exit 0');
}

type CaseFields = Record<string, unknown>;

function testCase(index: number, fields: CaseFields = {}): CaseFields {
  return { id: `case-${index}`, prompt: 'fix it', checks: [{ kind: 'command', run: 'sh checks/run.sh' }], ...fields };
}

async function writeSuite(cases: CaseFields[], settings: CaseFields = {}): Promise<string> {
  const file = join(dir, 'suite.json');
  await writeFile(file, JSON.stringify({ name: 'fixtures', ...settings, cases }));
  return file;
}

async function loadMessage(file: string): Promise<string> {
  const error = await loadSuite(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SuiteError);
  return (error as SuiteError).message;
}

/** File-system metadata calls made while loading a suite of `count` alike cases. */
async function callsToLoad(count: number): Promise<number> {
  const cases = Array.from({ length: count }, (_, index) => testCase(index));
  const file = await writeSuite(cases, { repo: 'repo', protect: ['test/'] });
  fsCalls.count = 0;
  await loadSuite(file);
  return fsCalls.count;
}

describe('checkFixtures', () => {
  it('asks the file system once per distinct repository, checker and protected path, whatever the case count', async () => {
    const forOne = await callsToLoad(1);
    expect(forOne).toBeGreaterThan(0);
    expect(await callsToLoad(500)).toBe(forOne);
  });

  it('reports the first case whose own protected path is missing, as checking every case would', async () => {
    const cases = Array.from({ length: 10 }, (_, index) =>
      testCase(index, { protect: index === 7 ? ['missing'] : ['test/'] }),
    );
    const file = await writeSuite(cases, { repo: 'repo' });
    expect(await loadMessage(file)).toBe(
      `${file}: invalid suite at cases[7].protect: protected path does not exist in the fixture: missing`,
    );
  });

  it('reports the first case whose own repository is missing after cases that share a good one', async () => {
    const cases = Array.from({ length: 5 }, (_, index) => testCase(index, index === 3 ? { repo: 'nope' } : {}));
    const file = await writeSuite(cases, { repo: 'repo' });
    expect(await loadMessage(file)).toBe(`${file}: invalid suite at cases[3].repo: fixture repository not found: nope`);
  });

  it('asks about the same checker afresh in another repository, where it is a symlink', async () => {
    await mkdir(join(dir, 'linked', 'checks'), { recursive: true });
    await writeFile(join(dir, 'linked', 'real.sh'), 'exit 0');
    await symlink('../real.sh', join(dir, 'linked', 'checks', 'run.sh'));
    const file = await writeSuite([testCase(0), testCase(1), testCase(2, { repo: 'linked' })], { repo: 'repo' });
    expect(await loadMessage(file)).toBe(
      `${file}: invalid suite at protect: protected path is a symlink: checks/run.sh`,
    );
  });

  it('checks a checker that only a later case runs', async () => {
    await symlink('run.sh', join(dir, 'repo', 'checks', 'other.sh'));
    const late = testCase(4, { checks: [{ kind: 'command', run: 'bash checks/other.sh' }] });
    const cases = [...Array.from({ length: 4 }, (_, index) => testCase(index)), late];
    const file = await writeSuite(cases, { repo: 'repo', protect: ['test/'] });
    expect(await loadMessage(file)).toBe(
      `${file}: invalid suite at protect: protected path is a symlink: checks/other.sh`,
    );
  });

  it('loads a suite whose cases share fixtures and checkers', async () => {
    const file = await writeSuite(
      Array.from({ length: 20 }, (_, index) => testCase(index)),
      { repo: 'repo', protect: ['test/'] },
    );
    const loaded = await loadSuite(file);
    expect(loaded.suite.cases).toHaveLength(20);
  });
});
