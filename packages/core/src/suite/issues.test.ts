import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue } from './issues.js';

/** The words for the first issue of `data` against `schema`, with the JSON `source` when given. */
function reasonFor(schema: z.ZodType, data: unknown, source?: string): string {
  const result = schema.safeParse(data);
  const [first] = result.error?.issues ?? [];
  if (first === undefined) throw new Error('expected an issue');
  return describeIssue(first, data, source).reason;
}

describe('describeIssue for numbers JSON cannot hold', () => {
  it('falls back to plain words for a number field that sets none of its own', () => {
    const schema = z.object({ n: z.number() });
    expect(reasonFor(schema, { n: Number.POSITIVE_INFINITY })).toBe(
      'must be a finite number (got Infinity, which is too large)',
    );
    expect(reasonFor(schema, { n: Number.POSITIVE_INFINITY }, '{"n": 1e999}')).toBe(
      'must be a finite number (got 1e999, which is too large)',
    );
  });

  it('uses the field’s own words when it sets them', () => {
    const schema = z.object({ n: z.int({ error: 'must be a small count' }) });
    expect(reasonFor(schema, { n: Number.NEGATIVE_INFINITY }, '{"n": -1e999}')).toBe(
      'must be a small count (got -1e999, which is too large a negative number)',
    );
  });

  it('quotes the value as JavaScript prints it when the source does not have it', () => {
    const schema = z.object({ n: z.number() });
    expect(reasonFor(schema, { n: Number.NaN }, '{}')).toBe('must be a finite number (got NaN)');
  });
});
