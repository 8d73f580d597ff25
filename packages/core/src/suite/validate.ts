import { resolve } from 'node:path';
import { invalidSuiteError, type SuiteError, type SuiteOrigin } from './errors.js';
import { fastValidSuite } from './fast-validate.js';
import { describeIssue } from './issues.js';
import { type Suite, SuiteSchema } from './schema.js';

/** Options of `validateSuite` and `safeValidateSuite`. */
export interface ValidateSuiteOptions {
  /** Directory a relative `file` resolves against for `SuiteError.file`. @default process.cwd() */
  cwd?: string | undefined;
}

/** The outcome of `safeValidateSuite`: the typed suite, or the error `validateSuite` would throw. */
export type SafeValidateResult = { ok: true; suite: Suite } | { ok: false; error: SuiteError };

/**
 * Checks parsed JSON against the suite schema without throwing. The returned suite is a fresh object;
 * `data` is never changed and no defaults are filled in (callers apply DEFAULT_TIMEOUT_SEC).
 */
export function safeValidateSuite(
  data: unknown,
  file?: string,
  options: ValidateSuiteOptions = {},
): SafeValidateResult {
  const absoluteFile = file === undefined ? undefined : resolve(options.cwd ?? process.cwd(), file);
  return validateFrom(data, { file, absoluteFile });
}

/** Checks parsed JSON against the suite schema; throws a SuiteError naming the first problem. */
export function validateSuite(data: unknown, file?: string, options: ValidateSuiteOptions = {}): Suite {
  const result = safeValidateSuite(data, file, options);
  if (!result.ok) throw result.error;
  return result.suite;
}

/**
 * Shared by the loader, which knows the absolute file and how to show it, and the JSON `source` that
 * messages quote values from. Only the first issue zod reports is kept: one precise message fixes one
 * thing, and zod's order is deterministic.
 */
export function validateFrom(data: unknown, origin: SuiteOrigin, source?: string): SafeValidateResult {
  // The same answer as the schema's for a valid suite, many times faster; anything else is the schema's.
  const fast = fastValidSuite(data);
  if (fast !== undefined) return { ok: true, suite: fast };
  const result = SuiteSchema.safeParse(data);
  if (result.success) return { ok: true, suite: result.data };
  const [first] = result.error.issues;
  if (first === undefined) return { ok: false, error: invalidSuiteError('', 'rejected by the schema', origin) };
  const { path, reason } = describeIssue(first, data, source);
  return { ok: false, error: invalidSuiteError(path, reason, origin) };
}
