import type { Check, CheckKind } from '../suite/schema.js';
import { agentExitCheck } from './agent-exit.js';
import { commandCheck } from './command.js';
import { fileContainsCheck } from './file-contains.js';
import { fileExistsCheck } from './file-exists.js';
import { fileNotExistsCheck } from './file-not-exists.js';
import { describeError } from './messages.js';
import { outputMatchesCheck } from './output-matches.js';
import { skillUsedCheck } from './skill-used.js';
import type { CheckContext, CheckDefinition, CheckOutcome, CheckResult } from './types.js';

/** One definition per check kind; a kind missing here, or filed under the wrong key, is a type error. */
export type CheckRegistry = { readonly [K in CheckKind]: CheckDefinition<K> };

/** Every check kind gz-bench knows, keyed by `kind`. */
export const checkRegistry: CheckRegistry = {
  fileExists: fileExistsCheck,
  fileContains: fileContainsCheck,
  fileNotExists: fileNotExistsCheck,
  command: commandCheck,
  outputMatches: outputMatchesCheck,
  agentExit: agentExitCheck,
  skillUsed: skillUsedCheck,
};

/** Evaluates one check; a check that throws becomes a failed result, never an exception. */
export async function evaluateCheck(check: Check, context: CheckContext): Promise<CheckResult> {
  let outcome: CheckOutcome;
  try {
    outcome = await definitionFor(check.kind).evaluate(check, context);
  } catch (error) {
    outcome = { passed: false, message: `check failed unexpectedly: ${describeError(error)}` };
  }
  return toResult(check, outcome);
}

/**
 * Evaluates checks in order; after the first failure the rest are returned as skipped, unevaluated.
 * `context` may differ per check (by its index), e.g. to give each command check a log of its own.
 */
export async function evaluateChecks(
  checks: readonly Check[],
  context: CheckContext | ((index: number) => CheckContext),
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  let failed = false;
  for (const [index, check] of checks.entries()) {
    if (failed) {
      results.push({ ...check, passed: false, skipped: true });
      continue;
    }
    const result = await evaluateCheck(check, typeof context === 'function' ? context(index) : context);
    results.push(result);
    failed = !result.passed;
  }
  return results;
}

// Indexing the mapped registry with a generic K keeps each kind's definition paired with its own check type.
function definitionFor<K extends CheckKind>(kind: K): CheckDefinition<K> {
  // Suites are validated before they get here, but a check built in code may still carry any kind;
  // `hasOwn` keeps `toString` and friends from passing as kinds.
  if (!Object.hasOwn(checkRegistry, kind)) throw new Error(`unknown check kind "${String(kind)}"`);
  return checkRegistry[kind];
}

function toResult(check: Check, outcome: CheckOutcome): CheckResult {
  // Key order is part of the report's readability: the check as written, then what became of it.
  return {
    ...check,
    passed: outcome.passed,
    ...(outcome.message !== undefined && { message: outcome.message }),
    ...outcome.details,
  };
}
