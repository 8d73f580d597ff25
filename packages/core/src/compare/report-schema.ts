import { z } from 'zod';

// What a comparison reads of a gz-bench JSON report, and no more: loose objects, so reports of other
// versions (older ones lack `outcome`, `agentName` and `trial`; newer ones may add fields) still compare.

const count = z.number().int().nonnegative();

/** What an agent reported of its own work; only the fields a comparison sums. */
const UsageSchema = z.looseObject({
  inputTokens: count.optional(),
  outputTokens: count.optional(),
  costUsd: z.number().nonnegative().optional(),
  costSource: z.string().optional(),
});

/** One row of a report: one trial of one (agent, case) cell. */
export const ComparedRowSchema = z.looseObject({
  file: z.string(),
  suite: z.string(),
  id: z.string(),
  passed: z.boolean(),
  /** A newer report may name an outcome this version does not know: it is then read as the row's step says. */
  outcome: z.string().optional(),
  notRun: z.boolean().optional(),
  failedStep: z.string().optional(),
  agentName: z.string().optional(),
  arm: z.string().optional(),
  trial: count.optional(),
  durationMs: z.number().nonnegative().optional(),
  agent: z
    .looseObject({
      timedOut: z.boolean().optional(),
      durationMs: z.number().nonnegative().optional(),
      usage: UsageSchema.optional(),
    })
    .optional(),
});

/** A row as a comparison reads it. */
export type ComparedRow = z.infer<typeof ComparedRowSchema>;

/** A gz-bench JSON report as a comparison reads it: `summary` and `results` tell it from other JSON. */
export const ComparedReportSchema = z.looseObject({
  summary: z.looseObject({ total: count }),
  results: z.array(ComparedRowSchema),
  scoreboard: z.looseObject({ rule: z.union([z.string(), z.number()]).optional() }).optional(),
});

/** A report as a comparison reads it. */
export type ComparedReport = z.infer<typeof ComparedReportSchema>;
