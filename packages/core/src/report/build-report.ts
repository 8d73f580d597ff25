import type { CheckResult } from '../checks/types.js';
import type { AgentRun, Report, ReportError, ReportMeta, ReportResult, ReportSummary } from './model.js';
import { notRunErrors } from './not-run.js';

/** Every key of every member of a union (plain `keyof` keeps only the shared ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T : never;

// Key orders are objects checked with `satisfies Record<…>` so that a field added to the model is a type error
// here until it is given a place; the key order of each literal is the JSON order.

// The README's keys come first and in its order, so `--json` output reads as documented; ours follow.
const RESULT_KEY_ORDER = {
  id: true,
  passed: true,
  durationMs: true,
  checkResults: true,
  suite: true,
  file: true,
  outcome: true,
  agentName: true,
  arm: true,
  trial: true,
  tags: true,
  meta: true,
  baseline: true,
  notRun: true,
  attempts: true,
  retriedErrors: true,
  error: true,
  failedStep: true,
  tampered: true,
  setupLogs: true,
  agent: true,
  sandbox: true,
  fixtureSkipped: true,
  warnings: true,
  workspace: true,
  family: true,
  changes: true,
  trajectory: true,
  skills: true,
} as const satisfies Record<keyof ReportResult, true>;

// The check's own fields in suite-schema order (the README shows `kind, path, passed`), then the outcome.
const CHECK_RESULT_KEY_ORDER = {
  kind: true,
  path: true,
  text: true,
  run: true,
  expectExit: true,
  pattern: true,
  flags: true,
  skill: true,
  expect: true,
  passed: true,
  skipped: true,
  message: true,
  exitCode: true,
  timedOut: true,
  reward: true,
  log: true,
  outputTail: true,
} as const satisfies Record<KeysOfUnion<CheckResult>, true>;

// The output tail goes last: it is the only long field. The log that holds all of it comes before it.
const AGENT_KEY_ORDER = {
  exitCode: true,
  signal: true,
  timedOut: true,
  durationMs: true,
  outputBytes: true,
  outputDroppedBytes: true,
  log: true,
  usage: true,
  outputTail: true,
} as const satisfies Record<keyof AgentRun, true>;

const META_KEY_ORDER = { gzBenchVersion: true, vitestVersion: true } as const satisfies Record<keyof ReportMeta, true>;

/**
 * Builds the report: summary counts, results grouped by file in a stable order, keys in canonical
 * order, and `errors` (the given ones, plus one for each file with cases that did not run).
 */
export function buildReport(
  results: readonly ReportResult[],
  meta?: ReportMeta,
  errors: readonly ReportError[] = [],
): Report {
  // Array#sort is stable, so cases within a file keep the suite order their callers pass them in.
  const ordered = [...results].sort((a, b) => compareCodeUnits(a.file, b.file)).map(normaliseResult);
  const passed = ordered.filter((result) => result.passed).length;
  const notRun = ordered.filter((result) => result.notRun).length;
  const summary: ReportSummary = { total: ordered.length, passed, failed: ordered.length - passed };
  if (notRun > 0) summary.notRun = notRun;
  const report: Report = { summary, results: ordered };
  const allErrors = [...errors, ...notRunErrors(ordered)];
  if (allErrors.length > 0) report.errors = allErrors.sort((a, b) => compareCodeUnits(a.file, b.file));
  if (meta !== undefined) report.meta = orderKeys(meta, META_KEY_ORDER);
  return report;
}

function normaliseResult(result: ReportResult): ReportResult {
  return orderKeys(
    {
      ...result,
      checkResults: result.checkResults.map((check) => orderKeys(check, CHECK_RESULT_KEY_ORDER)),
      agent: result.agent && orderKeys(result.agent, AGENT_KEY_ORDER),
    },
    RESULT_KEY_ORDER,
  );
}

/**
 * Copies `value` with the keys of `order` first in that order, then any other keys in their given order
 * (fields from a newer producer survive), and without keys whose value is undefined.
 */
function orderKeys<T extends object>(value: T, order: object): T {
  const known = Object.keys(order);
  const rank = (key: string): number => {
    const index = known.indexOf(key);
    return index === -1 ? known.length : index;
  };
  const entries = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => rank(a) - rank(b));
  // Same keys and values as `value` minus undefined ones, which T allows only as optional: still a T.
  return Object.fromEntries(entries) as T;
}

// Code-unit order, not localeCompare: the report must not depend on the machine's locale.
function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
