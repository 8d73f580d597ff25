import { DEFAULT_KILL_GRACE_MS, MAX_TIMER_MS } from '../process/run-process.js';
import { DEFAULT_TIMEOUT_SEC } from '../suite/defaults.js';
import type { Case } from '../suite/schema.js';

const MIB = 1024 * 1024;

/** The seconds that bound each command of a case. */
export function caseTimeoutSec(testCase: Case, override?: number): number {
  return override ?? testCase.timeoutSec ?? DEFAULT_TIMEOUT_SEC;
}

/**
 * The longest a whole case can take when every command runs to its timeout: a safety net for the
 * test runner's own timeout, which must never fire before the case's bounds do.
 */
export function caseBudgetMs(testCase: Case, override?: number): number {
  // Each command and each regular expression a check tests may run to the case's timeout.
  const bounded = testCase.checks.filter((c) => c.kind === 'command' || c.kind === 'outputMatches').length;
  const commands = (testCase.setup?.length ?? 0) + 1 + bounded;
  const perCommandMs = caseTimeoutSec(testCase, override) * 1000 + DEFAULT_KILL_GRACE_MS + 1000;
  // Preparing the workspace (copying a fixture repository) and restoring protected paths come on top.
  const preparationMs = 60_000;
  // Timers fire at once beyond 2^31-1 ms, which would fail the case immediately instead of never.
  return Math.min(commands * perCommandMs + preparationMs, MAX_TIMER_MS);
}

/** A case's MiB caps in bytes. */
export function caseByteLimits(testCase: Case): { disk?: number; output?: number } {
  return {
    ...(testCase.maxDiskMB !== undefined && { disk: Math.round(testCase.maxDiskMB * MIB) }),
    ...(testCase.maxOutputMB !== undefined && { output: Math.round(testCase.maxOutputMB * MIB) }),
  };
}
