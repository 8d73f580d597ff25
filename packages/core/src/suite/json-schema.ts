import { type core, z } from 'zod';
import { SuiteSchema } from './schema.js';

/** Where the published schema lives; suites may point `$schema` here or at node_modules. */
export const SUITE_JSON_SCHEMA_ID = 'https://unpkg.com/@gz-bench/core/suite.schema.json';

/** A JSON Schema document, as zod 4 produces it. */
export type SuiteJsonSchema = core.JSONSchema.BaseSchema;

/**
 * The suite's JSON Schema (draft-07, the newest draft VS Code's JSON language service fully supports),
 * generated from SuiteSchema so editors complete and check suite files. Strict objects give
 * `additionalProperties: false`. Refinements (regex validity, duplicate ids, NUL bytes) are not
 * expressible and stay with `validateSuite`.
 */
export function suiteJsonSchema(): SuiteJsonSchema {
  // `io: 'input'` describes the file as written, which is what an editor checks.
  const { $schema, ...generated } = z.toJSONSchema(SuiteSchema, { target: 'draft-07', io: 'input' });
  return { $schema, $id: SUITE_JSON_SCHEMA_ID, title: 'gz-bench suite', ...generated };
}
