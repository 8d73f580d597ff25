import { join, relative } from 'node:path';
import type { Trajectory } from '../agents/trajectory/types.js';
import { type InstalledSkill, skillEdits } from './install-skills.js';
import { skillUse } from './skill-evidence.js';

/** What a trial's report row says of each skill of its arm. */
export interface SkillTrial {
  name: string;
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
    trials.push({
      name: skill.name,
      ...(trajectory !== undefined && { used: use !== undefined }),
      ...(use && { step: use.step, route: use.route, tool: use.tool }),
      ...(edits.length > 0 && { edits }),
    });
  }
  return trials;
}
