import type { AgentDefinition } from '../agents/definition.js';
import type { SkillPlacement } from './install-skills.js';

/** The Agent Skills standard's own place, for agents that name none. */
export const DEFAULT_SKILL_DIR = '.agents/skills';

/** Where an arm's skills go for `agent` in `scope`: the agent's own directory, or the standard's. */
export function skillPlacement(agent: AgentDefinition | undefined, scope: SkillPlacement['scope']): SkillPlacement {
  return { scope, dir: agent?.skillDirs?.[scope] ?? DEFAULT_SKILL_DIR };
}
