import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUITE_JSON_SCHEMA_ID, suiteJsonSchema } from './json-schema.js';
import { readmeSuite } from './test-support/readme-suite.js';

const committedFile = fileURLToPath(new URL('../../suite.schema.json', import.meta.url));
const REGENERATE = 'UPDATE_JSON_SCHEMA=1 pnpm exec vitest run --project unit packages/core/src/suite';

/**
 * The committed file's text: pretty-printed JSON with a trailing newline, with arrays of scalars on one
 * line when they fit, as Biome formats JSON, so a regenerated file passes `biome check` as written.
 */
function render(schema: unknown): string {
  const pretty = JSON.stringify(schema, null, 2).replace(
    /^(.*)\[\n([^[\]{}]*?)\n *\](,?)$/gm,
    (array, head: string, items: string, comma: string) => {
      const oneLine = `${head}[${items.trim().split(/,\n */).join(', ')}]${comma}`;
      return oneLine.length <= 120 ? oneLine : array;
    },
  );
  return `${pretty}\n`;
}

type Schema = Record<string, unknown>;

/**
 * A deliberately tiny JSON Schema check covering the keywords the generated schema uses; enough to
 * prove editors would accept a good suite and flag unknown keys, without an ajv dependency.
 */
function conforms(schema: Schema, value: unknown): boolean {
  if ('const' in schema && schema.const !== value) return false;
  if (schema.type !== undefined && !hasType(value, schema.type as string)) return false;
  if (typeof value === 'string' && typeof schema.minLength === 'number' && value.length < schema.minLength)
    return false;
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    if (!value.every((item) => conforms(schema.items as Schema, item))) return false;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const record = value as Record<string, unknown>;
    for (const key of (schema.required ?? []) as string[]) if (!(key in record)) return false;
    for (const [key, item] of Object.entries(record)) {
      const property = properties[key];
      if (property === undefined) {
        if (schema.additionalProperties === false) return false;
      } else if (!conforms(property, item)) {
        return false;
      }
    }
  }
  if (Array.isArray(schema.oneOf)) {
    if ((schema.oneOf as Schema[]).filter((option) => conforms(option, value)).length !== 1) return false;
  }
  return true;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  return typeof value === type;
}

const readme = readmeSuite();

/** The README example plus the optional keys it leaves out: `$schema`, and `flags` on fileContains. */
const validSuite = {
  $schema: SUITE_JSON_SCHEMA_ID,
  ...readme,
  cases: readme.cases.map((spec) => ({
    ...spec,
    checks: spec.checks.map((check) => (check.kind === 'fileContains' ? { ...check, flags: 'i' } : check)),
  })),
};

describe('suiteJsonSchema', () => {
  it('equals the committed packages/core/suite.schema.json', () => {
    const generated = render(suiteJsonSchema());
    if (process.env.UPDATE_JSON_SCHEMA) writeFileSync(committedFile, generated);
    let committed = '';
    try {
      committed = readFileSync(committedFile, 'utf8');
    } catch {
      // Reported by the assertion below with the fix.
    }
    // Compare parsed JSON, not text, so a formatter upgrade that re-wraps the file does not fail this test.
    const parsed = committed === '' ? undefined : (JSON.parse(committed) as unknown);
    expect(parsed, `suite.schema.json is stale; regenerate it with: ${REGENERATE}`).toEqual(suiteJsonSchema());
    expect(committed.endsWith('}\n'), 'suite.schema.json must end with a newline').toBe(true);
  });

  it('is a draft-07 schema with an id and a title, for editors', () => {
    expect(suiteJsonSchema()).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: SUITE_JSON_SCHEMA_ID,
      title: 'gz-bench suite',
      type: 'object',
      required: ['name', 'cases'],
      additionalProperties: false,
    });
  });

  it('accepts the README example with every check kind and a $schema key', () => {
    expect(conforms(suiteJsonSchema(), validSuite)).toBe(true);
  });

  it.each([
    ['at the root', { ...validSuite, extra: true }],
    ['in a case', { ...validSuite, cases: [{ ...validSuite.cases[0], extra: true }] }],
    [
      'in a check',
      { ...validSuite, cases: [{ ...validSuite.cases[0], checks: [{ kind: 'fileExists', path: 'x', text: 'y' }] }] },
    ],
  ])('rejects an unknown key %s', (_where, suite) => {
    expect(conforms(suiteJsonSchema(), suite)).toBe(false);
  });

  it.each([
    ['a missing name', { cases: [] }],
    [
      'an unknown check kind',
      { name: 's', cases: [{ id: 'a', prompt: 'p', checks: [{ kind: 'fileExist', path: 'x' }] }] },
    ],
    ['an empty prompt', { name: 's', cases: [{ id: 'a', prompt: '', checks: [] }] }],
    [
      'fileContains flags other than "i"',
      {
        name: 's',
        cases: [{ id: 'a', prompt: 'p', checks: [{ kind: 'fileContains', path: 'x', text: 't', flags: 'g' }] }],
      },
    ],
  ])('rejects %s', (_what, suite) => {
    expect(conforms(suiteJsonSchema(), suite)).toBe(false);
  });
});
