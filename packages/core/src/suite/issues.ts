import type { core } from 'zod';
import { valueTextAt } from './value-text.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Prints a zod issue path as `cases[0].checks[2].pattern`; keys that aren't identifiers as `["weird key"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'symbol') out += `[${String(key)}]`;
    else if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** The JSON type name of a parsed value, as messages print it. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Walks `path` into `data`; `present` is false when the last key is missing, i.e. the field was omitted. */
function lookup(data: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
      return { present: false, value: undefined };
    }
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value };
}

const quoteList = (keys: readonly string[]) => keys.map((key) => JSON.stringify(key)).join(', ');

/**
 * Words for one zod issue found while validating `data`. zod's own messages are generic ("Invalid
 * input: expected string, received undefined"); these say what the author of the JSON file must change.
 * Messages the schema sets itself (refinements, `min(1, …)`) pass through unchanged. With the JSON
 * `source` that `data` was parsed from, a number JSON.parse could not hold is quoted as written.
 */
export function describeIssue(issue: core.$ZodIssue, data: unknown, source?: string): { path: string; reason: string } {
  const path = formatPath(issue.path);
  const found = lookup(data, issue.path);
  const written = () => (source === undefined ? undefined : valueTextAt(source, issue.path));
  switch (issue.code) {
    case 'unrecognized_keys': {
      const noun = issue.keys.length === 1 ? 'key' : 'keys';
      return { path, reason: `unknown ${noun} ${quoteList(issue.keys)}` };
    }
    case 'invalid_type': {
      if (!found.present) return { path, reason: 'required' };
      const wantsNumber = issue.expected === 'number' || issue.expected === 'int';
      if (wantsNumber && typeof found.value === 'number' && !Number.isFinite(found.value)) {
        return { path, reason: `${requirement(issue)} (${nonFinite(found.value, written())})` };
      }
      if (issue.expected === 'int' && typeof found.value === 'number') return { path, reason: 'must be an integer' };
      const expected = issue.expected === 'int' ? 'integer' : issue.expected;
      return { path, reason: `expected ${expected}, received ${typeName(found.value)}` };
    }
    case 'invalid_union': {
      // A discriminated union whose `kind` matches no option: zod reports it at the discriminator's path.
      if (issue.discriminator !== undefined && 'options' in issue && issue.options !== undefined) {
        const expected = `expected one of ${issue.options.map(String).join(', ')}`;
        if (!found.present) return { path, reason: `required; ${expected}` };
        return { path, reason: `unknown check ${issue.discriminator} ${JSON.stringify(found.value)}; ${expected}` };
      }
      return { path, reason: lowerFirst(issue.message) };
    }
    case 'too_small': {
      const reason = lowerFirst(issue.message);
      // `1e-400` parses as 0, and "must be positive" would puzzle its author.
      const literal = found.value === 0 ? written() : undefined;
      if (literal === undefined || ZERO_LITERAL.test(literal)) return { path, reason };
      return { path, reason: `${reason} (got ${literal}, which is too small to tell from 0)` };
    }
    case 'invalid_key': {
      // A record key (an `env` name) that its schema refused: zod says "Invalid key in record", the
      // key's own issue says why.
      const [reason] = issue.issues;
      if (reason === undefined) return { path, reason: lowerFirst(issue.message) };
      return { path, reason: reason.code === 'custom' ? reason.message : lowerFirst(reason.message) };
    }
    // The schema's own words, which may start with a variable name (`HOME is set by gz-bench`).
    case 'custom':
      return { path, reason: issue.message };
    default:
      return { path, reason: lowerFirst(issue.message) };
  }
}

/** A JSON number literal whose value is zero, such as `0`, `-0.00` or `0e5`. */
const ZERO_LITERAL = /^-?0(?:\.0+)?(?:[eE][+-]?\d+)?$/;

/**
 * What a number field must be, for a value of the wrong kind: the schema's own words (every number
 * field sets them, and they start with "must"), or generic ones should a field lack them.
 */
function requirement(issue: core.$ZodIssue): string {
  return issue.message.startsWith('must ') ? issue.message : 'must be a finite number';
}

/** `got 1e400, which is too large`: the value as written when known, else as JavaScript prints it. */
function nonFinite(value: number, written: string | undefined): string {
  const shown = written ?? String(value);
  if (Number.isNaN(value)) return `got ${shown}`;
  return value > 0 ? `got ${shown}, which is too large` : `got ${shown}, which is too large a negative number`;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
