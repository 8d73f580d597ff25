import type { AgentDefinition } from '../agents/definition.js';
import { allowEnvProblem } from '../env/allow-env.js';
import { envConstantsProblem } from '../env/env-constants.js';
import { homePathProblem } from '../workspace/case-home.js';

/** What of an agent's definition shapes the environment and HOME its command runs with. */
export type AgentSettings = Pick<AgentDefinition, 'env' | 'allowEnv' | 'home' | 'login' | 'loginOptional'>;

/**
 * Why an agent's settings cannot be used, as one line that names the setting, or undefined when they
 * can. Callers check definitions before a run starts; `runCase` checks again before a case does.
 */
export function agentSettingsProblem(agent: AgentSettings): string | undefined {
  const env = agent.env === undefined ? undefined : envConstantsProblem(agent.env, 'agent');
  if (env !== undefined) return `the agent's env: ${env}`;
  for (const entry of agent.allowEnv ?? []) {
    const problem = typeof entry === 'string' ? allowEnvProblem(entry) : 'must be a string';
    if (problem !== undefined) return `the agent's allowEnv: ${problem}`;
  }
  for (const file of agent.home ?? []) {
    const problem =
      homePathProblem(file.path) ?? (typeof file.content === 'string' ? undefined : 'its content must be a string');
    if (problem !== undefined) return `the agent's home file ${JSON.stringify(file.path)}: ${problem}`;
  }
  for (const path of agent.login ?? []) {
    const problem = homePathProblem(path);
    if (problem !== undefined) return `the agent's login ${JSON.stringify(path)}: ${problem}`;
  }
  return undefined;
}
