import * as z from 'zod';
import { OUTCOMES, type ReportResult } from '../report/model.js';

/** Raised for an earlier report that cannot be read back: not JSON, or not a gz-bench report. */
export class EarlierReportError extends Error {
  readonly code = 'GZ_BENCH_INVALID_EARLIER_REPORT';
  override name = 'EarlierReportError';
}

// What a resume relies on in each row; every other field is kept as it was written (a newer
// producer's fields included), since the merged report carries the earlier passing rows whole.
const EarlierRowSchema = z.looseObject({
  id: z.string(),
  suite: z.string(),
  file: z.string(),
  passed: z.boolean(),
  outcome: z.enum(OUTCOMES),
  durationMs: z.number(),
  checkResults: z.array(z.looseObject({ kind: z.string(), passed: z.boolean() })),
  agentName: z.string().optional(),
  arm: z.string().optional(),
  trial: z.number().int().positive().optional(),
});

const EarlierReportSchema = z.looseObject({
  summary: z.looseObject({ total: z.number() }),
  results: z.array(EarlierRowSchema),
});

/**
 * Reads the rows of an earlier gz-bench report (`--only-failed`), validated: a file that is not
 * JSON, or not a gz-bench report, is an error that says which and where.
 */
export function parseEarlierReport(text: string, displayPath: string): ReportResult[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EarlierReportError(
      `${displayPath} is not JSON; --only-failed takes a report a gz-bench run wrote (its report file, or --json output)`,
    );
  }
  const parsed = EarlierReportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new EarlierReportError(
      `${displayPath} is not a gz-bench report (${issue?.message ?? 'unexpected shape'}${where}); --only-failed takes a report a gz-bench run wrote`,
    );
  }
  // Validated above for what a resume reads; the rest of each row is the earlier run's own.
  return parsed.data.results as ReportResult[];
}
