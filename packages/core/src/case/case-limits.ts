import { DEFAULT_KILL_GRACE_MS, MAX_TIMER_MS } from '../process/run-process.js';
import { DEFAULT_TIMEOUT_SEC } from '../suite/defaults.js';
import type { Case } from '../suite/schema.js';

const MIB = 1024 * 1024;

/** The seconds that bound each command of a case. */
export function caseTimeoutSec(testCase: Case, override?: number): number {
  return override ?? testCase.timeoutSec ?? DEFAULT_TIMEOUT_SEC;
}

/** The bound of each step of a case, in milliseconds. */
export interface StepTimeoutsMs {
  agent: number;
  /** Each setup command. */
  setup: number;
  /** Each command check, and each regular expression a check tests. */
  check: number;
}

/**
 * The bounds of a case's steps: `timeoutSec` is the agent's, and setup's and checks' where their own
 * are not set. An override (`--timeout`, the plugin's `timeout`) bounds every command of the case.
 */
export function caseStepTimeoutsMs(testCase: Case, override?: number): StepTimeoutsMs {
  const agent = caseTimeoutSec(testCase, override);
  const own = (seconds: number | undefined) => (override ?? seconds ?? agent) * 1000;
  return { agent: agent * 1000, setup: own(testCase.setupTimeoutSec), check: own(testCase.checkTimeoutSec) };
}

/**
 * The longest a whole case can take when every command runs to its timeout: a safety net for the
 * test runner's own timeout, which must never fire before the case's bounds do.
 */
export function caseBudgetMs(testCase: Case, override?: number): number {
  const bounds = caseStepTimeoutsMs(testCase, override);
  // Each command and each regular expression a check tests may run to its bound, and be killed after it.
  const bounded = testCase.checks.filter((c) => c.kind === 'command' || c.kind === 'outputMatches').length;
  const slackMs = DEFAULT_KILL_GRACE_MS + 1000;
  const commandsMs =
    (testCase.setup?.length ?? 0) * (bounds.setup + slackMs) +
    (bounds.agent + slackMs) +
    bounded * (bounds.check + slackMs);
  // Preparing the workspace (copying a fixture repository) and restoring protected paths come on top.
  const preparationMs = 60_000;
  // Timers fire at once beyond 2^31-1 ms, which would fail the case immediately instead of never.
  return Math.min(commandsMs + preparationMs, MAX_TIMER_MS);
}

/** A case's MiB caps in bytes. */
export function caseByteLimits(testCase: Case): { disk?: number; output?: number } {
  return {
    ...(testCase.maxDiskMB !== undefined && { disk: Math.round(testCase.maxDiskMB * MIB) }),
    ...(testCase.maxOutputMB !== undefined && { output: Math.round(testCase.maxOutputMB * MIB) }),
  };
}
