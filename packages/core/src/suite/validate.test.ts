import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SuiteError } from './errors.js';
import { formatPath } from './issues.js';
import { DEFAULT_TIMEOUT_SEC } from './schema.js';
import { readmeSuite } from './test-support/readme-suite.js';
import { safeValidateSuite, validateSuite } from './validate.js';

/** A minimal valid suite whose first case's first check is `check`. */
const withCheck = (check: unknown) => ({ name: 's', cases: [{ id: 'a', prompt: 'p', checks: [check] }] });
/** A minimal valid suite whose first case has `fields` merged in. */
const withCase = (fields: Record<string, unknown>) => ({
  name: 's',
  cases: [{ id: 'a', prompt: 'p', checks: [], ...fields }],
});

/** The message validateSuite throws for `data`. */
function messageFor(data: unknown, file?: string): string {
  const result = safeValidateSuite(data, file);
  if (result.ok) throw new Error('expected the suite to be rejected');
  return result.error.message;
}

describe('validateSuite accepts', () => {
  it('the README example with every check kind, unchanged', () => {
    expect(validateSuite(readmeSuite())).toEqual(readmeSuite());
  });

  it('a suite without optional fields and fills in no defaults', () => {
    const suite = validateSuite({ name: 's', cases: [{ id: 'a', prompt: 'p', checks: [] }] });
    const [first] = suite.cases;
    expect(first).toEqual({ id: 'a', prompt: 'p', checks: [] });
    // Callers apply the default; the parsed suite stays what the author wrote.
    expect(first?.timeoutSec ?? DEFAULT_TIMEOUT_SEC).toBe(120);
  });

  it('a $schema key for editors', () => {
    const data = { $schema: '../node_modules/@gz-bench/core/suite.schema.json', ...readmeSuite() };
    expect(validateSuite(data).$schema).toBe(data.$schema);
  });

  it('zero cases and zero checks', () => {
    expect(validateSuite({ name: 's', cases: [] }).cases).toEqual([]);
  });

  it('allowEnv lists and patterns, as written', () => {
    const allowEnv = ['OPENAI_API_KEY', 'ANTHROPIC_*, GH_TOKEN', 'G*', '_X1'];
    expect(validateSuite(withCase({ allowEnv })).cases[0]?.allowEnv).toEqual(allowEnv);
  });

  it('env constants, PATH and empty values included, in the order written', () => {
    const env = { IS_SANDBOX: '1', PATH: '/opt/agent/bin:/usr/bin', EMPTY: '', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const suite = validateSuite({ ...withCase({ env }), env: { LANG: 'C.UTF-8' } });
    expect(suite.env).toEqual({ LANG: 'C.UTF-8' });
    expect(Object.keys(suite.cases[0]?.env ?? {})).toEqual(Object.keys(env));
  });

  it('without changing its input', () => {
    const data = readmeSuite();
    const frozen = structuredClone(data);
    validateSuite(data);
    expect(data).toEqual(frozen);
  });
});

describe('validateSuite rejects with an exact message', () => {
  it.each([
    ['a non-object root', [], 'invalid suite: expected object, received array'],
    ['a null root', null, 'invalid suite: expected object, received null'],
    ['an unknown root key', { ...readmeSuite(), foo: 1 }, 'invalid suite: unknown key "foo"'],
    ['several unknown keys', { ...readmeSuite(), foo: 1, bar: 2 }, 'invalid suite: unknown keys "foo", "bar"'],
    ['an unknown case key', withCase({ timeout: 5 }), 'invalid suite at cases[0]: unknown key "timeout"'],
    [
      'an unknown key inside a check',
      withCheck({ kind: 'fileExists', path: 'x', text: 'y' }),
      'invalid suite at cases[0].checks[0]: unknown key "text"',
    ],
    ['a missing name', { cases: [] }, 'invalid suite at name: required'],
    ['a missing cases', { name: 's' }, 'invalid suite at cases: required'],
    ['a missing prompt', { name: 's', cases: [{ id: 'a', checks: [] }] }, 'invalid suite at cases[0].prompt: required'],
    ['a wrong type', withCase({ id: 3 }), 'invalid suite at cases[0].id: expected string, received number'],
    ['cases not an array', { name: 's', cases: {} }, 'invalid suite at cases: expected array, received object'],
    ['a null field', withCase({ setup: null }), 'invalid suite at cases[0].setup: expected array, received null'],
    ['an empty name', { name: '', cases: [] }, 'invalid suite at name: must be a non-empty string'],
    [
      'an empty setup command',
      withCase({ setup: [''] }),
      'invalid suite at cases[0].setup[0]: must be a non-empty string',
    ],
    [
      'a NUL in the prompt',
      withCase({ prompt: 'a\0b' }),
      'invalid suite at cases[0].prompt: may not contain a NUL character',
    ],
    [
      'a zero timeout',
      withCase({ timeoutSec: 0 }),
      'invalid suite at cases[0].timeoutSec: must be a positive number of seconds',
    ],
    [
      'an unknown check kind',
      withCheck({ kind: 'fileExist', path: 'x' }),
      'invalid suite at cases[0].checks[0].kind: unknown check kind "fileExist"; expected one of fileExists, fileContains, fileNotExists, command, outputMatches, agentExit, skillUsed',
    ],
    [
      'a check without kind',
      withCheck({ path: 'x' }),
      'invalid suite at cases[0].checks[0].kind: required; expected one of fileExists, fileContains, fileNotExists, command, outputMatches, agentExit, skillUsed',
    ],
    [
      'a non-string kind',
      withCheck({ kind: 1 }),
      'invalid suite at cases[0].checks[0].kind: unknown check kind 1; expected one of fileExists, fileContains, fileNotExists, command, outputMatches, agentExit, skillUsed',
    ],
    [
      'an arm name with a slash',
      { name: 's', cases: [], arms: { 'v/1': [] } },
      'invalid suite at arms["v/1"]: an arm name is letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64',
    ],
    [
      'an arm that is a string',
      { name: 's', cases: [], arms: { v1: 'skills/pdf' } },
      'invalid suite at arms.v1: an arm is a list of skill folders, or { "skills": [...], "scope": "project" or "user" }',
    ],
    [
      'a baseline arm that is no arm',
      { name: 's', cases: [], arms: { none: [] }, baselineArm: 'v1' },
      'invalid suite at baselineArm: names no arm of the suite (none)',
    ],
    [
      'a skillUsed check without its skill',
      withCheck({ kind: 'skillUsed' }),
      'invalid suite at cases[0].checks[0].skill: required',
    ],
    [
      'a check that is not an object',
      withCheck('fileExists'),
      'invalid suite at cases[0].checks[0]: expected object, received string',
    ],
    [
      'a missing check field',
      withCheck({ kind: 'fileContains', path: 'x' }),
      'invalid suite at cases[0].checks[0].text: required',
    ],
    [
      'an invalid regular expression',
      withCheck({ kind: 'outputMatches', pattern: '(' }),
      'invalid suite at cases[0].checks[0].pattern: invalid regular expression /(/',
    ],
    [
      'invalid regular expression flags',
      withCheck({ kind: 'outputMatches', pattern: 'x', flags: 'gg' }),
      'invalid suite at cases[0].checks[0].flags: invalid regular expression flags "gg"',
    ],
    [
      'fileContains flags other than "i"',
      withCheck({ kind: 'fileContains', path: 'x', text: 't', flags: 'g' }),
      'invalid suite at cases[0].checks[0].flags: unsupported flags "g"; fileContains accepts only "i"',
    ],
    [
      'a fractional exit code',
      withCheck({ kind: 'command', run: 'x', expectExit: 1.5 }),
      'invalid suite at cases[0].checks[0].expectExit: must be an integer',
    ],
    [
      'an exit code above 255',
      withCheck({ kind: 'command', run: 'x', expectExit: 256 }),
      'invalid suite at cases[0].checks[0].expectExit: must be an exit code from 0 to 255',
    ],
    [
      'an infinite timeout given in code',
      withCase({ timeoutSec: Number.POSITIVE_INFINITY }),
      'invalid suite at cases[0].timeoutSec: must be a finite number of seconds (got Infinity, which is too large)',
    ],
    [
      'a NaN disk limit given in code',
      withCase({ maxDiskMB: Number.NaN }),
      'invalid suite at cases[0].maxDiskMB: must be a finite number of MiB (got NaN)',
    ],
    [
      'an infinite output limit on the suite',
      { name: 's', maxOutputMB: Number.NEGATIVE_INFINITY, cases: [] },
      'invalid suite at maxOutputMB: must be a finite number of MiB (got -Infinity, which is too large a negative number)',
    ],
    [
      'an infinite exit code',
      withCheck({ kind: 'command', run: 'x', expectExit: Number.POSITIVE_INFINITY }),
      'invalid suite at cases[0].checks[0].expectExit: must be an exit code from 0 to 255 (got Infinity, which is too large)',
    ],
    [
      'an exit code beyond the safe integers',
      withCheck({ kind: 'command', run: 'x', expectExit: 1e20 }),
      'invalid suite at cases[0].checks[0].expectExit: must be an exit code from 0 to 255',
    ],
    [
      'an exit code far below 0',
      withCheck({ kind: 'command', run: 'x', expectExit: -1e20 }),
      'invalid suite at cases[0].checks[0].expectExit: must be an exit code from 0 to 255',
    ],
    [
      'an infinite value where a string belongs',
      withCase({ prompt: Number.POSITIVE_INFINITY }),
      'invalid suite at cases[0].prompt: expected string, received number',
    ],
    [
      'infinite fileContains flags',
      withCheck({ kind: 'fileContains', path: 'x', text: 't', flags: Number.POSITIVE_INFINITY }),
      'invalid suite at cases[0].checks[0].flags: unsupported flags Infinity; fileContains accepts only "i"',
    ],
    [
      'an invalid regular expression with a line break in it',
      withCheck({ kind: 'outputMatches', pattern: '(\n' }),
      'invalid suite at cases[0].checks[0].pattern: invalid regular expression /(\\n/',
    ],
    [
      'regular expression flags with a control character',
      withCheck({ kind: 'outputMatches', pattern: 'x', flags: 'g\u0000' }),
      'invalid suite at cases[0].checks[0].flags: invalid regular expression flags "g\\u0000"',
    ],
    [
      'a duplicate case id',
      { name: 's', cases: withCase({}).cases.concat(withCase({}).cases) },
      'invalid suite at cases[1].id: duplicate case id "a"',
    ],
    [
      'an allowEnv entry that is no name',
      withCase({ allowEnv: ['OPENAI-KEY'] }),
      'invalid suite at cases[0].allowEnv[0]: "OPENAI-KEY" is not an environment variable name',
    ],
    [
      'an allowEnv list with an empty name',
      { name: 's', allowEnv: ['A,,B'], cases: [] },
      'invalid suite at allowEnv[0]: "A,,B" has an empty name between commas',
    ],
    [
      'an empty allowEnv entry',
      withCase({ allowEnv: [' '] }),
      'invalid suite at cases[0].allowEnv[0]: must name a variable',
    ],
    [
      'an allowEnv pattern with a * inside',
      withCase({ allowEnv: ['A,B*C'] }),
      'invalid suite at cases[0].allowEnv[0]: "B*C": a pattern has one *, at its end (PREFIX_*)',
    ],
    [
      'an allowEnv pattern of the whole environment',
      withCase({ allowEnv: ['*'] }),
      'invalid suite at cases[0].allowEnv[0]: "*" would pass the whole environment; name a prefix (PREFIX_*)',
    ],
    [
      'HOME in allowEnv',
      withCase({ allowEnv: ['OPENAI_API_KEY,HOME'] }),
      'invalid suite at cases[0].allowEnv[0]: HOME is set by gz-bench: each case has a HOME of its own (realHome gives yours; an agent\'s "login" copies files from it), so it cannot be passed through',
    ],
    [
      'TMPDIR in allowEnv',
      withCase({ allowEnv: ['TMPDIR'] }),
      'invalid suite at cases[0].allowEnv[0]: TMPDIR is set by gz-bench: each case has a temp directory of its own, so it cannot be passed through',
    ],
    [
      'a GZ_BENCH_ name in allowEnv',
      withCase({ allowEnv: ['GZ_BENCH_PROMPT'] }),
      'invalid suite at cases[0].allowEnv[0]: GZ_BENCH_PROMPT is set by gz-bench, as every GZ_BENCH_* variable, so it cannot be passed through',
    ],
    [
      'the GZ_BENCH_* pattern in allowEnv',
      withCase({ allowEnv: ['GZ_BENCH_*'] }),
      'invalid suite at cases[0].allowEnv[0]: GZ_BENCH_* names only variables gz-bench sets itself, so it cannot be passed through',
    ],
    [
      'a git variable in allowEnv',
      withCase({ allowEnv: ['GIT_DIR'] }),
      'invalid suite at cases[0].allowEnv[0]: GIT_DIR is set by gz-bench: setup and checks run git with its safety settings, and agents get a git config of their own (an agent\'s "env" may set git variables), so it cannot be passed through',
    ],
    [
      'an env name that is no name',
      withCase({ env: { 'A-B': '1' } }),
      'invalid suite at cases[0].env["A-B"]: must be an environment variable name',
    ],
    [
      'HOME as an env constant',
      { name: 's', env: { HOME: '/root' }, cases: [] },
      'invalid suite at env.HOME: HOME is set by gz-bench: each case has a HOME of its own (realHome gives yours; an agent\'s "login" copies files from it), so it cannot be set here',
    ],
    [
      'a GZ_BENCH_ env constant',
      withCase({ env: { GZ_BENCH_DIR: '/x' } }),
      'invalid suite at cases[0].env.GZ_BENCH_DIR: GZ_BENCH_DIR is set by gz-bench, as every GZ_BENCH_* variable, so it cannot be set here',
    ],
    [
      'a git env constant',
      withCase({ env: { GIT_CONFIG_GLOBAL: '/x' } }),
      'invalid suite at cases[0].env.GIT_CONFIG_GLOBAL: GIT_CONFIG_GLOBAL is set by gz-bench: setup and checks run git with its safety settings, and agents get a git config of their own (an agent\'s "env" may set git variables), so it cannot be set here',
    ],
    [
      'an env value that is no string',
      withCase({ env: { IS_SANDBOX: 1 } }),
      'invalid suite at cases[0].env.IS_SANDBOX: expected string, received number',
    ],
    [
      'an env value with a NUL',
      withCase({ env: { A: 'a\0b' } }),
      'invalid suite at cases[0].env.A: may not contain a NUL character',
    ],
    [
      'env that is no object',
      withCase({ env: ['A=1'] }),
      'invalid suite at cases[0].env: expected record, received array',
    ],
  ])('%s', (_title, data, message) => {
    expect(messageFor(data)).toBe(message);
  });

  it('reports the issue zod reports first', () => {
    expect(messageFor({ name: 3, zzz: 1, cases: [] })).toBe('invalid suite at name: expected string, received number');
  });

  it('prints keys that are not identifiers in brackets', () => {
    expect(messageFor({ ...readmeSuite(), 'weird key': 1 })).toBe('invalid suite: unknown key "weird key"');
  });

  it('prefixes the file as given', () => {
    const data = { name: 's', cases: [...withCase({}).cases, ...withCase({}).cases] };
    expect(messageFor(data, 'bench/x.bench.json')).toBe(
      'bench/x.bench.json: invalid suite at cases[1].id: duplicate case id "a"',
    );
  });
});

describe('SuiteError from validation', () => {
  it('has a stable code, the absolute file, the path and no stack noise in its message', () => {
    const error = (() => {
      try {
        validateSuite(withCheck({ kind: 'outputMatches', pattern: '(' }), 'bench/x.bench.json');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SuiteError);
    expect(error).toMatchObject({
      name: 'SuiteError',
      code: 'GZ_BENCH_INVALID_SUITE',
      file: resolve('bench/x.bench.json'),
      path: 'cases[0].checks[0].pattern',
      detail: 'invalid suite at cases[0].checks[0].pattern: invalid regular expression /(/',
    });
    expect((error as Error).message).not.toContain('\n');
  });

  it('leaves file undefined and path empty for root problems without a file', () => {
    const result = safeValidateSuite('nope');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ file: undefined, path: '' });
  });
});

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['name'], 'name'],
    [['cases', 0, 'checks', 2, 'pattern'], 'cases[0].checks[2].pattern'],
    [['$schema'], '$schema'],
    [['weird key'], '["weird key"]'],
    [['cases', 0, 'a"b', 'c'], 'cases[0]["a\\"b"].c'],
  ])('%j prints as %s', (path, printed) => {
    expect(formatPath(path)).toBe(printed);
  });
});
