import type { CheckDefinition } from './types.js';

/**
 * `skillUsed`: passes when the trial's trajectory shows the model loaded the arm's skill `skill`, or,
 * with `expect: false`, that it did not. A trial whose arm lacks the skill (the baseline arm, or
 * check-suite's oracle) has nothing to assert: the check passes, so that arm is judged by the task alone.
 */
export const skillUsedCheck: CheckDefinition<'skillUsed'> = {
  kind: 'skillUsed',
  async evaluate(check, { skills }) {
    const expected = check.expect ?? true;
    const skill = skills?.find((candidate) => candidate.name === check.skill);
    if (skill === undefined) return { passed: true };
    if (skill.used === undefined) {
      return {
        passed: false,
        message: `cannot tell whether the skill ${check.skill} was used: the agent gave no trajectory`,
      };
    }
    if (skill.used === expected) return { passed: true };
    if (expected) return { passed: false, message: `the model did not load the skill ${check.skill}` };
    const where = skill.step === undefined ? '' : ` at step ${skill.step}`;
    return { passed: false, message: `the model loaded the skill ${check.skill}${where}, which this case must not do` };
  },
};
