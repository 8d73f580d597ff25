import { ENV_NAME_PATTERN, type EnvScope, ownedEnvReason } from './env-names.js';

/**
 * Why `name` cannot be an `env` constant of the given scope (suite and case settings: `case`; an
 * agent's own: `agent`), or undefined when it can. PATH, SHELL, LANG and the like may be set: a
 * constant replaces the harness's value, without expanding anything in it.
 */
export function envConstantNameProblem(name: string, scope: EnvScope = 'case'): string | undefined {
  if (!ENV_NAME_PATTERN.test(name)) return 'must be an environment variable name';
  // A key JSON.parse gives an object but no JavaScript object can hold as data.
  if (name === '__proto__') return '__proto__ cannot be set';
  const owned = ownedEnvReason(name, scope);
  return owned === undefined ? undefined : `${owned}, so it cannot be set here`;
}

/** Why `value` cannot be an environment value: exec refuses a NUL in one. */
export function envConstantValueProblem(value: string): string | undefined {
  return value.includes('\0') ? 'may not contain a NUL character' : undefined;
}

/** The first problem of a set of constants, as `NAME: reason`, or undefined when every one is usable. */
export function envConstantsProblem(
  env: Readonly<Record<string, string>>,
  scope: EnvScope = 'case',
): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    const problem =
      envConstantNameProblem(name, scope) ??
      (typeof value === 'string' ? envConstantValueProblem(value) : 'must be a string');
    if (problem !== undefined) return `${name}: ${problem}`;
  }
  return undefined;
}
