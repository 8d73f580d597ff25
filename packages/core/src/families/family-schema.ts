import { z } from 'zod';
import { MAX_TIMEOUT_SEC } from '../suite/defaults.js';
import { TAG_PATTERN, tagProblem } from '../suite/labels.js';
import { FAMILY_KINDS, MAX_FAMILY_SIZE, MIN_FAMILY_SIZE } from './types.js';

const SIZE = `must be an integer from ${MIN_FAMILY_SIZE} to ${MAX_FAMILY_SIZE}`;
const SEED = 'must be an integer from 0 to 4294967295';

/** A seeded, generated task family of a suite: one case per size. */
export const FamilySchema = z
  .object({
    id: z
      .string()
      .min(1, 'must be a non-empty string')
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
        'must start with a letter or digit and hold only letters, digits and _ . -',
      )
      .describe('Names the family; each size is the case (and Vitest test) "<id> size <n>".'),
    kind: z
      .enum(FAMILY_KINDS, {
        error: (issue) =>
          `unknown family kind ${JSON.stringify(issue.input)}; expected one of ${FAMILY_KINDS.join(', ')}`,
      })
      .describe('pointerChase, faultRecovery or parallelLookup.'),
    seed: z
      .int({ error: SEED })
      .min(0, SEED)
      .max(2 ** 32 - 1, SEED)
      .describe('The same seed and size always generate the same task, byte for byte.'),
    sizes: z
      .array(z.int({ error: SIZE }).min(MIN_FAMILY_SIZE, SIZE).max(MAX_FAMILY_SIZE, SIZE))
      .min(1, 'must list at least one size')
      .describe(
        'One case per size, e.g. [10, 25, 50, 100]: hops of a chase, faults of faultRecovery, ids of a lookup.',
      ),
    minConcurrency: z
      .int({ error: 'must be a positive integer' })
      .min(1, 'must be a positive integer')
      .optional()
      .describe(
        'parallelLookup only: the fewest lookups that must be in flight at once for a case to pass. @default 1',
      ),
    timeoutSec: z
      .number({ error: 'must be a finite number of seconds' })
      .positive('must be a positive number of seconds')
      .max(MAX_TIMEOUT_SEC, `must be at most ${MAX_TIMEOUT_SEC} seconds`)
      .optional()
      .describe("Bounds the agent command of each size, as a case's timeoutSec."),
    network: z.boolean().optional().describe("As a case's network. @default true"),
    tags: z
      .array(
        z
          .string()
          .superRefine((name, ctx) => {
            const problem = tagProblem(name);
            if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
          })
          .meta({ pattern: TAG_PATTERN }),
      )
      .optional()
      .describe('Vitest test tags of every size of the family.'),
    meta: z.record(z.string(), z.json()).optional().describe('Metadata carried into each report row of the family.'),
  })
  .strict()
  .superRefine((family, ctx) => {
    const seen = new Set<number>();
    family.sizes.forEach((size, index) => {
      if (seen.has(size)) ctx.addIssue({ code: 'custom', path: ['sizes', index], message: `duplicate size ${size}` });
      seen.add(size);
    });
    if (family.minConcurrency !== undefined && family.kind !== 'parallelLookup') {
      ctx.addIssue({
        code: 'custom',
        path: ['minConcurrency'],
        message: 'minConcurrency applies to parallelLookup only',
      });
    }
  });

/** A family as written in a suite. */
export type Family = z.infer<typeof FamilySchema>;
