// Reads the JSON report of a `gz-bench run --json` and says whether every case ran and passed.
import { firstLine } from './spawn.mjs';

/** undefined when all `expected` cases passed, else one line saying what went wrong. */
export function runProblem(run, expected) {
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return firstLine(run);
  }
  const summary = report?.summary;
  if (summary?.total !== expected) return `the report has ${summary?.total} cases, not ${expected}`;
  if (summary.passed !== expected) {
    const failed = report.results?.find((result) => !result.passed);
    return `${summary.passed} of ${expected} cases passed${failed?.error ? ` (${failed.error})` : ''}`;
  }
  return undefined;
}

/** The parsed report of a run (for fields such as the agent's output size). */
export function reportOf(run) {
  return JSON.parse(run.stdout);
}
