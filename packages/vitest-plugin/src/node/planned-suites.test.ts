import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlannedSuite, planSuite, selectedCases } from './planned-suites.js';

let dir: string;
let planned: PlannedSuite;
const SUITE = {
  name: 'alpha',
  cases: [
    { id: 'write-hello', prompt: 'p', checks: [{ kind: 'fileExists', path: 'hello.txt' }] },
    { id: 'write-world', prompt: 'p', checks: [] },
    { id: 'reply', prompt: 'p', checks: [] },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-planned-'));
  await writeFile(join(dir, 'a.bench.json'), `${JSON.stringify(SUITE, null, 2)}\n`);
  planned = await planSuite(join(dir, 'a.bench.json'), dir, {});
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const ids = (plan: PlannedSuite, version = '4.1.12') => selectedCases(plan, version)?.map((c) => c.planned.id);

describe('planSuite', () => {
  it('reads the suite, its file relative to the root, and the line of each case id', () => {
    expect(planned.file).toBe('a.bench.json');
    expect(planned.suite?.name).toBe('alpha');
    // Pretty JSON: the ids are on lines 5, 15 and 20.
    expect(planned.idLines).toEqual([5, 15, 20]);
  });

  it('never rejects: a suite that does not load plans no cases', async () => {
    await writeFile(join(dir, 'bad.bench.json'), '{ "name": ');
    const bad = await planSuite(join(dir, 'bad.bench.json'), dir, {});
    expect(bad.suite).toBeUndefined();
    expect(selectedCases(bad, '4.1.12')).toEqual([]);
  });
});

describe('selectedCases', () => {
  it('selects every case with their checks when nothing narrows the run', () => {
    expect(selectedCases(planned, '4.1.12')?.map((entry) => entry.planned)).toEqual([
      { file: 'a.bench.json', suite: 'alpha', id: 'write-hello', checks: [{ kind: 'fileExists', path: 'hello.txt' }] },
      { file: 'a.bench.json', suite: 'alpha', id: 'write-world', checks: [] },
      { file: 'a.bench.json', suite: 'alpha', id: 'reply', checks: [] },
    ]);
  });

  it("selects each agent's cells, matching -t against suite > agent > case", () => {
    const cells = (pattern: RegExp | undefined, version = '5.1.2') =>
      selectedCases({ ...planned, selection: { testNamePattern: pattern } }, version, ['opus', 'haiku'])?.map(
        (entry) => `${entry.column.agentName} ${entry.planned.id}`,
      );
    expect(cells(undefined)).toHaveLength(6);
    expect(cells(/^alpha > haiku > /)).toEqual(['haiku write-hello', 'haiku write-world', 'haiku reply']);
    expect(cells(/^alpha haiku reply$/, '4.1.12')).toEqual(['haiku reply']);
  });

  it('matches -t against the full name as Vitest 4 joins it (with a space)', () => {
    expect(ids({ ...planned, selection: { testNamePattern: /write/ } })).toEqual(['write-hello', 'write-world']);
    expect(ids({ ...planned, selection: { testNamePattern: /^alpha reply$/ } })).toEqual(['reply']);
    expect(ids({ ...planned, selection: { testNamePattern: /^alpha > reply$/ } })).toEqual([]);
  });

  it('matches -t against the full name as Vitest 5 joins it (with " > ")', () => {
    expect(ids({ ...planned, selection: { testNamePattern: /^alpha > reply$/ } }, '5.1.2')).toEqual(['reply']);
  });

  it('selects the cases whose id is on a line of file:line, and all of them for the first line', () => {
    expect(ids({ ...planned, selection: { testLines: [15] } })).toEqual(['write-world']);
    expect(ids({ ...planned, selection: { testLines: [5, 20] } })).toEqual(['write-hello', 'reply']);
    expect(ids({ ...planned, selection: { testLines: [1] } })).toEqual(['write-hello', 'write-world', 'reply']);
    expect(ids({ ...planned, selection: { testLines: [15], testNamePattern: /hello/ } })).toEqual([]);
  });

  it('cannot tell the cases of test ids, which only a collected file can match', () => {
    expect(selectedCases({ ...planned, selection: { testIds: ['abc_0_0'] } }, '4.1.12')).toBeUndefined();
  });
});
