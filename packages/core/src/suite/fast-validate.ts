import { allowEnvProblem } from '../env/allow-env.js';
import { envConstantNameProblem, envConstantValueProblem } from '../env/env-constants.js';
import { compiles } from './compiles.js';
import { tagProblem } from './labels.js';
import {
  AgentExitCheckSchema,
  CaseSchema,
  ChangesOptionsSchema,
  CommandCheckSchema,
  EnvironmentSchema,
  FileContainsCheckSchema,
  FileExistsCheckSchema,
  FileNotExistsCheckSchema,
  imageSources,
  MAX_TIMEOUT_SEC,
  OutputMatchesCheckSchema,
  SkillUsedCheckSchema,
  StartingFileSchema,
  type Suite,
  SuiteSchema,
} from './schema.js';
import { workdirProblem } from './workdir.js';

// zod gives every value it checks a result object of its own, and a suite of 10,000 cases holds
// some 200,000 values: validating it with the schema alone takes longer than the rest of loading.
// This module states the schema's rules a second time, as plain functions that allocate only the
// output, and answers for suites that keep every rule. Whenever it cannot vouch for the data (any
// rule broken, any key or value it does not know) it answers nothing, and the schema decides and
// words the error. Its output is what `SuiteSchema.parse` returns: fresh objects and arrays, keys
// in the schema's order. fast-validate.test.ts holds it to the schema rule by rule.

/** What a rule returns for a value it cannot vouch for. */
const UNSURE = Symbol('unsure');

/** The output for a value the rule vouches for (a fresh copy for objects and arrays), or UNSURE. */
type Rule = (value: unknown) => unknown;

/** Results of `new RegExp(pattern, flags)` during one validation, by flags, then pattern. */
let compiled: Map<string, Map<string, boolean>> | undefined;

function compilesOnce(pattern: string, flags: string): boolean {
  compiled ??= new Map();
  let byPattern = compiled.get(flags);
  if (byPattern === undefined) {
    byPattern = new Map();
    compiled.set(flags, byPattern);
  }
  let result = byPattern.get(pattern);
  if (result === undefined) {
    result = compiles(pattern, flags);
    byPattern.set(pattern, result);
  }
  return result;
}

const keep =
  (test: (value: unknown) => boolean): Rule =>
  (value) =>
    test(value) ? value : UNSURE;

const isNonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isPositive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

const anyString = keep((value) => typeof value === 'string');
const nonEmpty = keep(isNonEmpty);
const noNul = keep((value) => isNonEmpty(value) && !value.includes('\0'));
const boolean = keep((value) => typeof value === 'boolean');
const positive = keep(isPositive);
const timeout = keep((value) => isPositive(value) && value <= MAX_TIMEOUT_SEC);
const exitCode = keep((value) => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 255);
const allowEnvEntry = keep((value) => typeof value === 'string' && allowEnvProblem(value) === undefined);
const literal = (expected: string) => keep((value) => value === expected);

function arrayOf(item: Rule): Rule {
  return (value) => {
    if (!Array.isArray(value)) return UNSURE;
    const out: unknown[] = [];
    for (const element of value) {
      const checked = item(element);
      if (checked === UNSURE) return UNSURE;
      out.push(checked);
    }
    return out;
  };
}

function nonEmptyArrayOf(item: Rule): Rule {
  const array = arrayOf(item);
  return (value) => (Array.isArray(value) && value.length > 0 ? array(value) : UNSURE);
}

/**
 * An object of environment constants: every own key a name `envConstantNameProblem` accepts, every
 * value a string without NUL; the output has the input's keys in the input's order, as zod's record.
 */
const envConstants: Rule = (value) => {
  if (!isPlainObject(value)) return UNSURE;
  const out: Record<string, unknown> = {};
  let present = 0;
  for (const name of Object.keys(value)) {
    const constant = value[name];
    if (envConstantNameProblem(name) !== undefined) return UNSURE;
    if (typeof constant !== 'string' || envConstantValueProblem(constant) !== undefined) return UNSURE;
    out[name] = constant;
    present += 1;
  }
  // An inherited enumerable key is one zod would see and this loop would not.
  return keyCount(value) === present ? out : UNSURE;
};

/** An object of non-empty names to non-empty paths without NUL, in the input's order. */
const pathsByName: Rule = (value) => {
  if (!isPlainObject(value)) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    if (noNul(name) === UNSURE || noNul(value[name]) === UNSURE) return UNSURE;
    out[name] = value[name];
  }
  return keyCount(value) === Object.keys(out).length ? out : UNSURE;
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A strict object of the schema `schema`: only the keys of `rules`, the `required` ones present,
 * each value kept by its rule, and `refine` true of the output.
 */
function objectOf(
  schema: { shape: Record<string, unknown> },
  rules: Record<string, Rule>,
  required: readonly string[],
  refine: (out: Record<string, unknown>) => boolean = () => true,
): Rule {
  const order = Object.keys(schema.shape);
  // A key of the schema with no rule here (the schema grew one): vouch for nothing, leave it to zod.
  const complete = order.every((key) => Object.hasOwn(rules, key));
  const fields = order.map((key) => ({ key, rule: rules[key] as Rule, required: required.includes(key) }));
  return (value) => {
    if (!complete || !isPlainObject(value)) return UNSURE;
    const out: Record<string, unknown> = {};
    let present = 0;
    for (const { key, rule, required: needed } of fields) {
      if (!Object.hasOwn(value, key)) {
        if (needed) return UNSURE;
        continue;
      }
      const checked = rule(value[key]);
      if (checked === UNSURE) return UNSURE;
      out[key] = checked;
      present += 1;
    }
    // Every key the schema sees (for…in, as zod's strict check walks them) was one of its own.
    return keyCount(value) === present && refine(out) ? out : UNSURE;
  };
}

/** The number of enumerable string keys, inherited ones included, without making an array of them. */
function keyCount(value: Record<string, unknown>): number {
  let count = 0;
  for (const _key in value) count += 1;
  return count;
}

const checkRules = new Map<string, Rule>([
  ['fileExists', objectOf(FileExistsCheckSchema, { kind: literal('fileExists'), path: noNul }, ['kind', 'path'])],
  [
    'fileContains',
    objectOf(
      FileContainsCheckSchema,
      { kind: literal('fileContains'), path: noNul, text: nonEmpty, flags: literal('i') },
      ['kind', 'path', 'text'],
    ),
  ],
  [
    'fileNotExists',
    objectOf(FileNotExistsCheckSchema, { kind: literal('fileNotExists'), path: noNul }, ['kind', 'path']),
  ],
  [
    'command',
    objectOf(CommandCheckSchema, { kind: literal('command'), run: noNul, expectExit: exitCode }, ['kind', 'run']),
  ],
  [
    'outputMatches',
    objectOf(
      OutputMatchesCheckSchema,
      { kind: literal('outputMatches'), pattern: nonEmpty, flags: anyString },
      ['kind', 'pattern'],
      // Invalid flags make any pattern fail to compile: one try answers both of the schema's questions.
      ({ pattern, flags }) => compilesOnce(pattern as string, (flags as string | undefined) ?? ''),
    ),
  ],
  ['agentExit', objectOf(AgentExitCheckSchema, { kind: literal('agentExit'), expectExit: exitCode }, ['kind'])],
  [
    'skillUsed',
    objectOf(SkillUsedCheckSchema, { kind: literal('skillUsed'), skill: nonEmpty, expect: boolean }, ['kind', 'skill']),
  ],
]);

const check: Rule = (value) => {
  if (!isPlainObject(value) || typeof value.kind !== 'string') return UNSURE;
  return checkRules.get(value.kind)?.(value) ?? UNSURE;
};

/** One path, or a list of at least one (`verify`, `solutionFiles`). */
const pathOrPaths: Rule = (value) => (typeof value === 'string' ? noNul(value) : nonEmptyArrayOf(noNul)(value));

const taskSettings: Record<string, Rule> = {
  layout: literal('task'),
  solutionFiles: pathOrPaths,
  files: arrayOf(objectOf(StartingFileSchema, { from: noNul, to: noNul }, ['from', 'to'])),
  notReproduced: arrayOf(noNul),
};

const caseSettings: Record<string, Rule> = {
  repo: noNul,
  git: boolean,
  protect: arrayOf(noNul),
  allowEnv: arrayOf(allowEnvEntry),
  env: envConstants,
  realHome: boolean,
  network: boolean,
  maxDiskMB: positive,
  maxOutputMB: positive,
  changes: (value) =>
    value === false
      ? false
      : objectOf(
          ChangesOptionsSchema,
          { exclude: arrayOf(noNul), maxFileKB: positive, maxDiffKB: positive },
          [],
        )(value),
  environment: objectOf(
    EnvironmentSchema,
    {
      archive: noNul,
      dockerfile: noNul,
      image: noNul,
      context: noNul,
      ignore: arrayOf(noNul),
      fallback: literal('host'),
    },
    [],
    (out) => imageSources(out) === 1 && (out.dockerfile !== undefined || out.context === undefined),
  ),
  baseImages: pathsByName,
  // Checker integrity.
  verify: pathOrPaths,
};

const tag = keep((value) => typeof value === 'string' && tagProblem(value) === undefined);

/** A JSON value as `z.json()` keeps it: finite numbers only, fresh arrays and objects. */
const jsonValue: Rule = (value) => {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : UNSURE;
  if (Array.isArray(value)) return arrayOf(jsonValue)(value);
  return jsonObject(value);
};

/** An object of JSON values, as `z.record(z.string(), z.json())` keeps it. */
const jsonObject: Rule = (value) => {
  if (!isPlainObject(value)) return UNSURE;
  const out: Record<string, unknown> = {};
  let present = 0;
  for (const key of Object.keys(value)) {
    const checked = jsonValue(value[key]);
    if (checked === UNSURE) return UNSURE;
    out[key] = checked;
    present += 1;
  }
  return keyCount(value) === present ? out : UNSURE;
};

const labels: Record<string, Rule> = { tags: arrayOf(tag), meta: jsonObject };

const stepTimeouts: Record<string, Rule> = { setupTimeoutSec: timeout, checkTimeoutSec: timeout };

const workdirSetting: Record<string, Rule> = {
  workdir: keep((value) => isNonEmpty(value) && !value.includes('\0') && workdirProblem(value) === undefined),
};

const testCase = objectOf(
  CaseSchema,
  {
    ...caseSettings,
    id: nonEmpty,
    prompt: noNul,
    setup: arrayOf(noNul),
    checks: arrayOf(check),
    timeoutSec: timeout,
    // Checker integrity.
    solution: arrayOf(noNul),
    ...stepTimeouts,
    ...workdirSetting,
    ...taskSettings,
    ...labels,
  },
  ['id', 'prompt', 'checks'],
);

/** The suite-wide rules: unique case ids, and `protect` only where a `repo` can restore from. */
function suiteRefine(suite: Record<string, unknown>): boolean {
  const seen = new Set<string>();
  for (const ownCase of suite.cases as Array<Record<string, unknown>>) {
    const id = ownCase.id as string;
    if (seen.has(id)) return false;
    seen.add(id);
    const protect = (ownCase.protect ?? suite.protect) as string[] | undefined;
    if (protect !== undefined && protect.length > 0 && (ownCase.repo ?? suite.repo) === undefined) return false;
    // Checker integrity: {{verify}} only where there is a verify directory (the schema says where).
    if ((ownCase.verify ?? suite.verify) === undefined && JSON.stringify(ownCase.checks).includes('{{verify}}')) {
      return false;
    }
  }
  return true;
}

const suite = objectOf(
  SuiteSchema,
  {
    $schema: anyString,
    name: nonEmpty,
    description: anyString,
    version: anyString,
    ...caseSettings,
    ...stepTimeouts,
    ...workdirSetting,
    ...labels,
    cases: arrayOf(testCase),
    // Families are few and small, and generate their cases after validation: the schema checks them.
    families: () => UNSURE,
    tasks: arrayOf(noNul),
    // Arms name few skill folders, and their names and baseline are the schema's to check.
    arms: () => UNSURE,
    baselineArm: () => UNSURE,
  },
  ['name', 'cases'],
  suiteRefine,
);

/**
 * What `SuiteSchema.parse(data)` returns when this module can tell that it would succeed; undefined
 * when it cannot (the data breaks a rule, or holds what the module does not know): ask the schema.
 */
export function fastValidSuite(data: unknown): Suite | undefined {
  try {
    const out = suite(data);
    // Every rule of the schema held, checked above: the output has the schema's type.
    return out === UNSURE ? undefined : (out as Suite);
  } finally {
    compiled = undefined;
  }
}
