/** Variables of the harness itself (Vitest's and gz-bench's own settings) that agents never see. */
const HARNESS_VARIABLE = /^(VITEST|GZ_BENCH_)/;

/** The environment that setup, the agent and command checks start from: the caller's, less the harness's own variables. */
export function agentBaseEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && !HARNESS_VARIABLE.test(name)) env[name] = value;
  }
  return env;
}
