export { type Column, columnName, parseColumn, suiteColumns } from './arm-columns.js';
export { type ArmDeltas, type ArmEffect, type ArmVerdict, armVerdicts } from './arm-verdicts.js';
export { type InstalledSkill, installSkills, type SkillPlacement, skillEdits } from './install-skills.js';
export {
  type ArmSet,
  baselineArmName,
  DEFAULT_BASELINE_ARM,
  type LoadedArm,
  loadArms,
  unknownSkillProblem,
} from './load-arms.js';
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
export { DEFAULT_SKILL_DIR, skillPlacement } from './skill-placement.js';
export { type SkillTrial, skillTrials } from './skill-trial.js';
