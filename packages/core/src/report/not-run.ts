import type { Check } from '../suite/schema.js';
import type { ReportError, ReportResult } from './model.js';

/** A case that a run was meant to give a result, and where it comes from. */
export interface PlannedCase {
  /** The suite file, relative to the Vitest root, as report rows name it. */
  file: string;
  /** The suite's name. */
  suite: string;
  id: string;
  /** The case's checks, listed as skipped in its row. */
  checks: readonly Check[];
}

const NOT_RUN_PREFIX = 'the case did not finish: ';

/**
 * The row of a case that has no result of its own: it failed, as a harness fault, with `reason` (what
 * stopped it, e.g. `Vitest reported "Worker exited unexpectedly"`). A run with such rows never passes.
 */
export function notRunResult(planned: PlannedCase, reason: string): ReportResult {
  return {
    id: planned.id,
    passed: false,
    outcome: 'notRun',
    durationMs: 0,
    checkResults: planned.checks.map((check) => ({ ...check, passed: false, skipped: true })),
    suite: planned.suite,
    file: planned.file,
    notRun: true,
    error: `${NOT_RUN_PREFIX}${reason}`,
    failedStep: 'harness',
  };
}

/** One error per suite file with cases that did not run, e.g. `bench/a.json: 2 of 3 cases did not finish: …`. */
export function notRunErrors(results: readonly ReportResult[]): ReportError[] {
  const byFile = new Map<string, { total: number; notRun: ReportResult[] }>();
  for (const result of results) {
    const entry = byFile.get(result.file) ?? { total: 0, notRun: [] };
    entry.total++;
    if (result.notRun) entry.notRun.push(result);
    byFile.set(result.file, entry);
  }
  const errors: ReportError[] = [];
  for (const [file, { total, notRun }] of byFile) {
    const first = notRun[0];
    if (first === undefined) continue;
    const reason = first.error?.startsWith(NOT_RUN_PREFIX) ? first.error.slice(NOT_RUN_PREFIX.length) : first.error;
    const count = `${notRun.length} of ${total} ${total === 1 ? 'case' : 'cases'}`;
    errors.push({ file, message: `${file}: ${count} did not finish${reason === undefined ? '' : `: ${reason}`}` });
  }
  return errors;
}
