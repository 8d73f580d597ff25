export { type InstalledSkill, installSkills, type SkillPlacement, skillEdits } from './install-skills.js';
export {
  loadArm,
  loadSkill,
  MAX_SKILL_DESCRIPTION,
  MAX_SKILL_NAME,
  type Skill,
  SkillError,
  skillFiles,
  skillNameProblem,
} from './load-skill.js';
export { SKILL_TOOLS, type SkillUse, skillUse } from './skill-evidence.js';
export { type SkillTrial, skillTrials } from './skill-trial.js';
