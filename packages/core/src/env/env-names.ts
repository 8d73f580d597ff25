// Names of the environment that gz-bench sets itself for every command of a case. Passing one of them
// through from the harness, or setting it as a constant, would either be overwritten without a word or
// break what gz-bench guarantees (each case's own HOME and temp dir, its prompt and token variables,
// git's safety settings in checks), so both are refused with the reason.

/** What an environment variable name may look like. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The directories every case has of its own. */
const CASE_DIRS: Readonly<Record<string, string>> = {
  HOME: 'each case has a HOME of its own (realHome gives yours; an agent\'s "login" copies files from it)',
  TMPDIR: 'each case has a temp directory of its own',
  TMP: 'each case has a temp directory of its own',
  TEMP: 'each case has a temp directory of its own',
};

/** Prefix of the variables gz-bench gives every command (prompt, workspace, case token). */
export const OWN_ENV_PREFIX = 'GZ_BENCH_';

/** Prefix of git's variables, which gz-bench sets for setup, checks and agents alike. */
const GIT_ENV_PREFIX = 'GIT_';

/** Who may set a name: `case` settings (suite, case, harness variables) or an agent's own `env`. */
export type EnvScope = 'case' | 'agent';

/**
 * Why `name` is gz-bench's to set, or undefined when it is not. An agent's own `env` may set git's
 * variables (they reach its command alone); nothing else may, since setup and checks must run git with
 * the safety settings and an agent gets a git config of its own.
 */
export function ownedEnvReason(name: string, scope: EnvScope = 'case'): string | undefined {
  const dir = CASE_DIRS[name];
  if (dir !== undefined) return `${name} is set by gz-bench: ${dir}`;
  if (name.startsWith(OWN_ENV_PREFIX)) return `${name} is set by gz-bench, as every ${OWN_ENV_PREFIX}* variable`;
  // Upper case, as gitSafeEnv drops them: what it would drop must not look passed.
  if (scope === 'case' && name.toUpperCase().startsWith(GIT_ENV_PREFIX)) {
    return `${name} is set by gz-bench: setup and checks run git with its safety settings, and agents get a git config of their own (an agent's "env" may set git variables)`;
  }
  return undefined;
}

/**
 * Why no name that starts with `prefix` is a harness variable to pass on: the whole family is
 * gz-bench's (`GZ_BENCH_*`, `GIT_*`). A prefix that merely covers some owned names (`G*`, `HO*`) is
 * fine: those names are never passed.
 */
export function ownedPrefixReason(prefix: string): string | undefined {
  if (prefix.startsWith(OWN_ENV_PREFIX)) return `${prefix}* names only variables gz-bench sets itself`;
  if (prefix.toUpperCase().startsWith(GIT_ENV_PREFIX)) {
    return `${prefix}* names only git variables, which gz-bench sets itself for setup, checks and agents`;
  }
  return undefined;
}

/** Whether gz-bench sets `name` itself, so that no harness variable of that name is ever passed on. */
export function isOwnedEnvName(name: string): boolean {
  return ownedEnvReason(name) !== undefined;
}
