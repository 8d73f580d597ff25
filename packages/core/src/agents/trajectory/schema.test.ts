import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TrajectorySchema, trajectoryJsonSchema } from './schema.js';

const committedFile = fileURLToPath(new URL('../../../trajectory.schema.json', import.meta.url));
const REGENERATE = 'UPDATE_JSON_SCHEMA=1 pnpm exec vitest run --project unit packages/core/src/agents/trajectory';

const minimal = {
  schema_version: 'ATIF-v1.4',
  session_id: 's',
  agent: { name: 'a', version: 'unknown' },
  steps: [
    { step_id: 1, source: 'user', message: 'p' },
    {
      step_id: 2,
      source: 'agent',
      message: '',
      tool_calls: [{ tool_call_id: 'c', function_name: 'Bash', arguments: { command: 'ls' } }],
      observation: { results: [{ source_call_id: 'c', content: 'x' }] },
    },
  ],
};

describe('trajectory schema', () => {
  it('accepts ATIF and refuses fields outside extra, gaps in step ids and results for no call', () => {
    expect(TrajectorySchema.safeParse(minimal).success).toBe(true);
    expect(TrajectorySchema.safeParse({ ...minimal, gzBench: 1 }).success).toBe(false);
    const [user, agent] = minimal.steps;
    expect(TrajectorySchema.safeParse({ ...minimal, steps: [{ ...user, colour: 'red' }] }).success).toBe(false);
    expect(TrajectorySchema.safeParse({ ...minimal, steps: [user, { ...agent, step_id: 3 }] }).success).toBe(false);
    const orphan = { ...agent, observation: { results: [{ source_call_id: 'nope' }] } };
    expect(TrajectorySchema.safeParse({ ...minimal, steps: [user, orphan] }).success).toBe(false);
  });

  it('is published as trajectory.schema.json, generated from the zod schema', () => {
    // Compared as JSON: Biome formats the committed file its own way.
    const generated = trajectoryJsonSchema();
    if (process.env.UPDATE_JSON_SCHEMA === '1') writeFileSync(committedFile, `${JSON.stringify(generated, null, 2)}\n`);
    expect(JSON.parse(readFileSync(committedFile, 'utf8')), `regenerate it with ${REGENERATE}`).toEqual(generated);
  });
});
