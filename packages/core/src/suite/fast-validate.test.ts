import { describe, expect, it } from 'vitest';
import { fastValidSuite } from './fast-validate.js';
import {
  AgentExitCheckSchema,
  CaseSchema,
  CommandCheckSchema,
  FileContainsCheckSchema,
  FileExistsCheckSchema,
  FileNotExistsCheckSchema,
  OutputMatchesCheckSchema,
  SkillUsedCheckSchema,
  SuiteSchema,
} from './schema.js';

const checkSchemas: Record<string, { shape: object }> = {
  fileExists: FileExistsCheckSchema,
  fileContains: FileContainsCheckSchema,
  fileNotExists: FileNotExistsCheckSchema,
  command: CommandCheckSchema,
  outputMatches: OutputMatchesCheckSchema,
  agentExit: AgentExitCheckSchema,
  skillUsed: SkillUsedCheckSchema,
};

import { readmeSuite } from './test-support/readme-suite.js';

// The fast path must never vouch for a suite the schema refuses, and must give exactly the schema's
// output (fresh objects, keys in the schema's order) for one it accepts. Here it is held to the
// schema on valid suites, and on every mutation of a suite that sets every key at every level.

/** A valid suite that sets every key the schema has, at every level, and every check kind. */
function fullSuite() {
  return {
    $schema: './node_modules/@gz-bench/core/suite.schema.json',
    name: 'full',
    description: '',
    version: '1.0.0',
    repo: 'fixtures/repo',
    git: true,
    protect: ['test/'],
    allowEnv: ['OPENAI_API_KEY', '_X1', 'ANTHROPIC_*, GH_TOKEN'],
    env: { IS_SANDBOX: '1', PATH: '/usr/bin', EMPTY: '' },
    realHome: false,
    network: true,
    maxDiskMB: 200,
    maxOutputMB: 0.5,
    changes: { exclude: ['node_modules', 'dist/**'], maxFileKB: 64, maxDiffKB: 512 },
    verify: 'fixtures/verify',
    environment: { archive: 'images/base.tar' },
    baseImages: { 'python:3.12': 'images/python.tar', 'ubuntu:24.04': '/srv/images/ubuntu' },
    setupTimeoutSec: 600,
    checkTimeoutSec: 0.5,
    workdir: '/app',
    tags: ['python', 'lang:py'],
    meta: { source: 'aider', nested: { list: [1, 'two', null, true], empty: {} } },
    tasks: ['tasks/harbor'],
    cases: [
      {
        repo: 'fixtures/other',
        git: false,
        protect: [],
        allowEnv: [],
        env: {},
        realHome: true,
        network: false,
        maxDiskMB: 1e-3,
        maxOutputMB: 4,
        changes: false,
        verify: 'fixtures/repo/tests',
        environment: {
          dockerfile: 'tasks/x/environment/Dockerfile',
          context: 'tasks/x/environment',
          ignore: ['tests'],
          fallback: 'host',
        },
        baseImages: {},
        id: 'every-key',
        prompt: 'Fix it; "quote" $(not run) \n',
        setup: ['npm ci', 'echo ok'],
        timeoutSec: 86_400,
        solution: ['echo done', 'true'],
        setupTimeoutSec: 86_400,
        checkTimeoutSec: 30,
        workdir: '/srv/task',
        layout: 'task',
        solutionFiles: ['tasks/x/solution', 'tasks/x/solution.sh'],
        files: [{ from: 'tasks/x/environment/data', to: '.' }],
        notReproduced: ['RUN apt-get install -y curl'],
        tags: ['hard', 'python'],
        meta: { difficulty: 'hard', weight: 1.5 },
        checks: [
          { kind: 'fileExists', path: 'src/sum.js' },
          { kind: 'fileContains', path: 'src/sum.js', text: 'export', flags: 'i' },
          { kind: 'fileNotExists', path: '.env.local' },
          { kind: 'command', run: 'sh checks/run.sh {{verify}}', expectExit: 255 },
          { kind: 'outputMatches', pattern: '\\bdone\\b', flags: 'imsu' },
          { kind: 'agentExit', expectExit: 3 },
          { kind: 'skillUsed', skill: 'pdf', expect: false },
        ],
      },
      { id: 'least', prompt: 'p', checks: [] },
    ],
  };
}

/** The schema's verdict and output for `data`. */
function schemaOutput(data: unknown): unknown {
  const result = SuiteSchema.safeParse(data);
  return result.success ? result.data : undefined;
}

/** Asserts that the fast path gives the schema's output, key order included, as fresh objects. */
function expectSameAsSchema(data: unknown): void {
  const fast = fastValidSuite(data);
  const schema = schemaOutput(data);
  expect(schema).toBeDefined();
  expect(fast).toStrictEqual(schema);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(schema));
  expect(fast).not.toBe(data);
}

/** Every path to a value inside `value` (object keys and array indexes), parents before children. */
function pathsIn(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => [[...prefix, index], ...pathsIn(item, [...prefix, index])]);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsIn(item, [...prefix, key])]);
  }
  return [];
}

type Container = Record<string | number, unknown>;

/** A copy of `data` with `change` applied to the container of `path` and its last key. */
function mutated(
  data: unknown,
  path: Array<string | number>,
  change: (parent: Container, key: string | number) => void,
) {
  const copy = structuredClone(data) as Container;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Container;
  change(parent, path.at(-1) as string | number);
  return copy;
}

/** Values that break one rule or another of nearly every field (and some that keep a few). */
const REPLACEMENTS: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  1.5,
  255,
  256,
  86_400.5,
  1e20,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.NaN,
  '',
  'x',
  '\0',
  'a\0b',
  'i',
  'g',
  'gg',
  '(',
  'NOT-A-NAME',
  'A,,B',
  'A*B',
  '*',
  'HOME',
  'GZ_BENCH_*',
  ['HOME'],
  ['A,B', 'C_*'],
  { HOME: 'x' },
  { GIT_DIR: 'x' },
  { A: 1 },
  { A: 'a\0b' },
  { 'A-B': 'x' },
  'fileExists',
  [],
  [''],
  ['\0'],
  [1],
  ['x'],
  {},
  { kind: 'fileExists' },
  { kind: 'fileExists', path: 'a' },
  { id: 'every-key', prompt: 'p', checks: [] },
];

describe('fastValidSuite gives what the schema gives', () => {
  it('for the README suite, a suite that sets every key, and the least suite', () => {
    expectSameAsSchema(readmeSuite());
    expectSameAsSchema(fullSuite());
    expectSameAsSchema({ name: 's', cases: [] });
  });

  it('with keys in the schema order whatever the order in the file', () => {
    const reversed = JSON.parse(JSON.stringify(fullSuite()), (_key, value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    );
    expect(Object.keys(reversed)[0]).toBe('cases');
    expectSameAsSchema(reversed);
  });

  it('as fresh objects and arrays, leaving the input unchanged', () => {
    const data = fullSuite();
    const before = structuredClone(data);
    const fast = fastValidSuite(data);
    expect(data).toStrictEqual(before);
    expect(fast?.cases).not.toBe(data.cases);
    expect(fast?.cases[0]?.checks).not.toBe(data.cases[0]?.checks);
    expect(fast?.cases[0]?.checks[0]).not.toBe(data.cases[0]?.checks[0]);
    expect(fast?.protect).not.toBe(data.protect);
  });
});

describe('fastValidSuite knows every key of the schema', () => {
  // A new key in the schema turns the fast path off (every suite then goes through zod, correct but
  // slow) until fast-validate.ts has a rule for it; this test says so first.
  it('the suite, a case and every check kind', () => {
    const full = fullSuite();
    const [firstCase] = full.cases;
    const known: Array<[string, { shape: object }, object]> = [
      ['SuiteSchema', SuiteSchema, full],
      ['CaseSchema', CaseSchema, firstCase ?? {}],
      ...(firstCase?.checks ?? []).map((check): [string, { shape: object }, object] => [
        check.kind,
        checkSchemas[check.kind] ?? { shape: {} },
        check,
      ]),
    ];
    expect(known).toHaveLength(9);
    for (const [name, schema, example] of known) {
      // `families` and arms have no fast rule: a suite with them always goes to the schema (below).
      const keys = Object.keys(schema.shape).filter((key) => !['families', 'arms', 'baselineArm'].includes(key));
      expect(keys.sort(), name).toEqual(Object.keys(example).sort());
    }
  });

  it('leaves a suite with arms to the schema', () => {
    const data = { name: 's', cases: [], arms: { none: [], v1: ['skills/pdf'] }, baselineArm: 'none' };
    expect(fastValidSuite(data)).toBeUndefined();
    expect(schemaOutput(data)).toEqual(data);
  });

  it('leaves a suite with families to the schema', () => {
    const data = { name: 's', cases: [], families: [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [2] }] };
    expect(fastValidSuite(data)).toBeUndefined();
    expect(schemaOutput(data)).toBeDefined();
  });
});

describe('fastValidSuite never vouches for what the schema refuses', () => {
  const full = fullSuite();
  const paths = pathsIn(full);

  it.each(paths.map((path) => [path.join('.'), path] as const))('with any value at %s', (_name, path) => {
    for (const replacement of REPLACEMENTS) {
      const data = mutated(full, path, (parent, key) => {
        parent[key] = structuredClone(replacement);
      });
      const schema = schemaOutput(data);
      const fast = fastValidSuite(data);
      // Same verdict both ways: the fast path neither accepts more nor gives up on a valid suite.
      expect(fast === undefined, `${path.join('.')} = ${String(replacement)}`).toBe(schema === undefined);
      if (schema !== undefined) expect(JSON.stringify(fast)).toBe(JSON.stringify(schema));
    }
  });

  it.each(paths.map((path) => [path.join('.'), path] as const))('without the value at %s', (_name, path) => {
    const data = mutated(full, path, (parent, key) => {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    });
    expect(fastValidSuite(data) === undefined).toBe(schemaOutput(data) === undefined);
  });

  it('with an unknown key on any object', () => {
    // `meta` takes any key: an added one is one more value (the next test).
    const objects = [[], ...paths].filter((path) => {
      if (path.includes('meta')) return false;
      let value: unknown = full;
      for (const key of path) value = (value as Container)[key];
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    });
    expect(objects.length).toBeGreaterThan(5);
    for (const path of objects) {
      const data = structuredClone(full) as Container;
      let target = data;
      for (const key of path) target = target[key] as Container;
      target.unknownKey = 1;
      expect(schemaOutput(data), path.join('.')).toBeUndefined();
      expect(fastValidSuite(data), path.join('.')).toBeUndefined();
    }
  });

  it('but accepts any key of meta, at any depth, as the schema does', () => {
    const data = structuredClone(full) as Container;
    Object.assign(data.meta as Container, { any: { key: [1, { deeper: 'x' }] } });
    expectSameAsSchema(data);
  });

  it.each([
    [
      'a duplicate case id',
      {
        name: 's',
        cases: [
          { id: 'a', prompt: 'p', checks: [] },
          { id: 'a', prompt: 'q', checks: [] },
        ],
      },
    ],
    [
      'protect on the suite without a repo',
      { name: 's', protect: ['t'], cases: [{ id: 'a', prompt: 'p', checks: [] }] },
    ],
    ['protect on a case without a repo', { name: 's', cases: [{ id: 'a', prompt: 'p', protect: ['t'], checks: [] }] }],
    [
      'a pattern invalid only with its flags',
      {
        name: 's',
        cases: [{ id: 'a', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '\\p{L', flags: 'u' }] }],
      },
    ],
    [
      'a pattern that compiled earlier with other flags',
      {
        name: 's',
        cases: [
          { id: 'a', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '\\-' }] },
          { id: 'b', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: '\\-', flags: 'u' }] },
        ],
      },
    ],
    ['a __proto__ key', JSON.parse('{"name": "s", "cases": [], "__proto__": {"name": ""}}')],
    ['a case that is not a plain object', { name: 's', cases: [new Date()] }],
    [
      'a sparse cases array',
      { name: 's', cases: Object.assign(new Array(2), { 1: { id: 'a', prompt: 'p', checks: [] } }) },
    ],
  ])('%s', (_title, data) => {
    expect(schemaOutput(data)).toBeUndefined();
    expect(fastValidSuite(data)).toBeUndefined();
  });

  it.each([
    ['an empty protect without a repo', { name: 's', protect: [], cases: [{ id: 'a', prompt: 'p', checks: [] }] }],
    [
      'a case protect with the suite repo',
      { name: 's', repo: 'r', cases: [{ id: 'a', prompt: 'p', protect: ['t'], checks: [] }] },
    ],
    [
      'empty outputMatches flags',
      { name: 's', cases: [{ id: 'a', prompt: 'p', checks: [{ kind: 'outputMatches', pattern: 'x', flags: '' }] }] },
    ],
    [
      'a negative zero exit code',
      { name: 's', cases: [{ id: 'a', prompt: 'p', checks: [{ kind: 'command', run: 'x', expectExit: -0 }] }] },
    ],
  ])('but accepts %s, as the schema does', (_title, data) => {
    expectSameAsSchema(data);
  });

  it('and gives the schema output for objects without a prototype', () => {
    const data = Object.assign(Object.create(null), { name: 's', cases: [{ id: 'a', prompt: 'p', checks: [] }] });
    expectSameAsSchema(data);
  });

  it('and leaves an env constant named __proto__ to the schema', () => {
    const data = { name: 's', env: JSON.parse('{"__proto__": "x", "A": "1"}'), cases: [] };
    expect(fastValidSuite(data)).toBeUndefined();
    expect(schemaOutput(data)).toBeDefined();
  });

  it('and leaves an optional key that is present but undefined to the schema', () => {
    const data = { name: 's', description: undefined, cases: [] };
    expect(fastValidSuite(data)).toBeUndefined();
    expect(schemaOutput(data)).toBeDefined();
  });
});
