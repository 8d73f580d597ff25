/**
 * A worker's environment with the user's values back where Vite and Vitest set their own (see
 * node/user-env.ts): null unsets a name the user's environment did not have.
 */
export function withUserEnv(
  env: NodeJS.ProcessEnv,
  overrides: Readonly<Record<string, string | null>> | undefined,
): NodeJS.ProcessEnv {
  if (overrides === undefined) return env;
  const restored: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) delete restored[name];
    else restored[name] = value;
  }
  return restored;
}
