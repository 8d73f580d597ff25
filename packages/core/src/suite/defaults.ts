// Plain values of the suite format, apart from its zod schema (schema.ts re-exports them), so that
// running a case loads no schema library: a Vitest worker imports only what runs cases (run.ts).

/** Default per-case timeout, in seconds, when a case sets no `timeoutSec`. */
export const DEFAULT_TIMEOUT_SEC = 120;

/** The longest timeout, in seconds, a case or a run may set: one day. */
export const MAX_TIMEOUT_SEC = 86_400;

/** The settings a suite may give all its cases and a case may override (see `withSuiteSettings`). */
export const CASE_SETTING_KEYS = [
  'repo',
  'git',
  'protect',
  'allowEnv',
  'env',
  'realHome',
  'network',
  'maxDiskMB',
  'maxOutputMB',
  'changes',
  'environment',
  'baseImages',
  // Checker integrity.
  'verify',
] as const;

/** The placeholder of a command check's `run` that names the hidden verifiers' directory. */
export const VERIFY_PLACEHOLDER = '{{verify}}';

/** Bounds of setup and checks, and the workspace's fixed path, that a suite may give all its cases and a case may override. */
export const TASK_SETTING_KEYS = ['setupTimeoutSec', 'checkTimeoutSec', 'workdir'] as const;
