import type { UsageExtractor, UsageField } from '../definition.js';
import { nearestName } from '../nearest-name.js';
import { BUILTIN_EXTRACTOR_NAMES } from './builtin-extractors.js';
import { isRecord, JsonPathError, parseJsonPath } from './json-path.js';
import { isUsageField, USAGE_FIELDS } from './usage-fields.js';

/** Raised for an extractor that is not one gz-bench can use; the message names where and how to fix it. */
export class UsageExtractorError extends Error {
  readonly code = 'GZ_BENCH_INVALID_USAGE_EXTRACTOR';
  override name = 'UsageExtractorError';
}

const KINDS = ['builtin', 'regex', 'json', 'jsonl'] as const;
const OPTIONS: Record<(typeof KINDS)[number], readonly string[]> = {
  builtin: [],
  regex: ['flags', 'sum'],
  json: [],
  jsonl: ['sum'],
};
const REGEX_FLAGS = /^[dimsuv]*$/;

/**
 * Checks a usage extractor as a user declared it (config, JSON) and returns it typed. Messages start
 * with `usage` and the path of the mistake: `usage.json.inputToken: unknown usage field …`.
 */
export function parseUsageExtractor(value: unknown, where = 'usage'): UsageExtractor {
  if (!isRecord(value))
    throw new UsageExtractorError(
      `${where}: expected an object such as { "builtin": "claude-code" }, { "regex": "…" }, { "json": {…} } or { "jsonl": {…} }`,
    );
  const kinds = KINDS.filter((kind) => Object.hasOwn(value, kind));
  if (kinds.length !== 1) {
    const found = kinds.length === 0 ? 'none' : kinds.join(' and ');
    throw new UsageExtractorError(`${where}: give exactly one of builtin, regex, json or jsonl (found ${found})`);
  }
  const kind = kinds[0] as (typeof KINDS)[number];
  for (const key of Object.keys(value)) {
    if (key === kind || OPTIONS[kind].includes(key)) continue;
    const allowed = [kind, ...OPTIONS[kind]].join(', ');
    throw new UsageExtractorError(`${where}.${key}: unknown key for a ${kind} extractor (it takes ${allowed})`);
  }
  if ('sum' in value && typeof value.sum !== 'boolean')
    throw new UsageExtractorError(`${where}.sum: expected true or false`);
  switch (kind) {
    case 'builtin':
      return { builtin: builtinName(value.builtin, where) };
    case 'regex':
      return regexExtractor(value, where);
    case 'json':
      return { json: fieldPaths(value.json, `${where}.json`) };
    case 'jsonl':
      return {
        jsonl: fieldPaths(value.jsonl, `${where}.jsonl`),
        ...(value.sum === undefined ? {} : { sum: value.sum as boolean }),
      };
  }
}

function builtinName(name: unknown, where: string): string {
  if (typeof name === 'string' && (BUILTIN_EXTRACTOR_NAMES as readonly string[]).includes(name)) return name;
  const nearest = typeof name === 'string' ? nearestName(name, BUILTIN_EXTRACTOR_NAMES) : undefined;
  const hint = nearest ? ` (did you mean ${nearest}?)` : '';
  throw new UsageExtractorError(
    `${where}.builtin: unknown extractor ${JSON.stringify(name)}${hint}; built-ins are ${BUILTIN_EXTRACTOR_NAMES.join(', ')}`,
  );
}

function regexExtractor(value: Record<string, unknown>, where: string): UsageExtractor {
  const { regex, flags } = value;
  if (typeof regex !== 'string' || regex === '')
    throw new UsageExtractorError(`${where}.regex: expected a non-empty regular expression`);
  if (flags !== undefined && (typeof flags !== 'string' || !REGEX_FLAGS.test(flags))) {
    throw new UsageExtractorError(
      `${where}.flags: expected flags among d, i, m, s, u, v (g is implied), got ${JSON.stringify(flags)}`,
    );
  }
  try {
    new RegExp(regex, `${flags ?? ''}g`);
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: /, '');
    throw new UsageExtractorError(`${where}.regex: invalid regular expression /${regex}/: ${reason}`);
  }
  const groups = [...regex.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((match) => match[1] ?? '');
  if (groups.length === 0) {
    throw new UsageExtractorError(
      `${where}.regex: name a group after each figure, e.g. /input: (?<inputTokens>\\d+)/; usage fields are ${USAGE_FIELDS.join(', ')}`,
    );
  }
  for (const group of groups) {
    if (!isUsageField(group))
      throw new UsageExtractorError(
        `${where}.regex: group "${group}" is not a usage field${fieldHint(group)}; usage fields are ${USAGE_FIELDS.join(', ')}`,
      );
  }
  return {
    regex,
    ...(flags === undefined ? {} : { flags: flags as string }),
    ...(value.sum === undefined ? {} : { sum: value.sum as boolean }),
  };
}

function fieldPaths(value: unknown, where: string): Partial<Record<UsageField, string>> {
  if (!isRecord(value) || Object.keys(value).length === 0) {
    throw new UsageExtractorError(
      `${where}: expected an object of usage fields and paths, e.g. { "inputTokens": "usage.input_tokens" }`,
    );
  }
  const paths: Partial<Record<UsageField, string>> = {};
  for (const [field, path] of Object.entries(value)) {
    if (!isUsageField(field))
      throw new UsageExtractorError(
        `${where}.${field}: unknown usage field${fieldHint(field)}; usage fields are ${USAGE_FIELDS.join(', ')}`,
      );
    if (typeof path !== 'string')
      throw new UsageExtractorError(`${where}.${field}: expected a path such as "usage.input_tokens"`);
    try {
      parseJsonPath(path);
    } catch (error) {
      if (error instanceof JsonPathError) throw new UsageExtractorError(`${where}.${field}: ${error.message}`);
      throw error;
    }
    paths[field] = path;
  }
  return paths;
}

function fieldHint(name: string): string {
  const nearest = nearestName(name, USAGE_FIELDS);
  return nearest ? ` (did you mean ${nearest}?)` : '';
}
