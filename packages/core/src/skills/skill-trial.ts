import { join, relative } from 'node:path';
import type { Trajectory } from '../agents/trajectory/types.js';
import { type InstalledSkill, skillEdits } from './install-skills.js';
import { skillUse } from './skill-evidence.js';

/** What a trial's report row says of each skill of its arm. */
export interface SkillTrial {
  name: string;
  /**
   * Whether the CLI put the skill's name and description in front of the model: from what the CLI
   * says it offered (Claude Code, Qwen Code), else true where the model loaded it; absent where
   * neither tells.
   */
  advertised?: boolean;
  /** Whether the model loaded it; absent when the agent gave no trajectory to tell by. */
  used?: boolean;
  /** The trajectory step where it was loaded, and how. */
  step?: number;
  route?: 'tool' | 'read';
  tool?: string;
  /** What the agent did to the skill's files (`edited SKILL.md`), when it did anything. */
  edits?: string[];
}

/**
 * The evidence of each installed skill once the agent is done: its use read from `trajectory`, and
 * its files compared with what was installed. `seen` maps a host directory to where the agent saw it
 * (the workspace at a task's fixed path), so a read by the agent's own path counts.
 */
export async function skillTrials(
  installed: readonly InstalledSkill[],
  trajectory: Trajectory | undefined,
  seen: readonly { host: string; agent: string }[],
): Promise<SkillTrial[]> {
  const trials: SkillTrial[] = [];
  for (const skill of installed) {
    const dirs = [
      skill.dir,
      ...seen.flatMap(({ host, agent }) => {
        const rel = relative(host, skill.dir);
        return rel.startsWith('..') ? [] : [join(agent, rel)];
      }),
    ];
    const use = trajectory === undefined ? undefined : skillUse(trajectory, skill.name, dirs);
    const edits = await skillEdits(skill);
    const offered = offeredSkills(trajectory);
    const advertised = offered === undefined ? (use === undefined ? undefined : true) : offered.includes(skill.name);
    trials.push({
      name: skill.name,
      ...(advertised !== undefined && { advertised }),
      ...(trajectory !== undefined && { used: use !== undefined }),
      ...(use && { step: use.step, route: use.route, tool: use.tool }),
      ...(edits.length > 0 && { edits }),
    });
  }
  return trials;
}

/** The skills the CLI said it offered the model, as the trajectory keeps them. */
function offeredSkills(trajectory: Trajectory | undefined): string[] | undefined {
  const offered = trajectory?.agent.extra?.offered_skills;
  return Array.isArray(offered) ? offered.filter((name): name is string => typeof name === 'string') : undefined;
}
