import { describe, expect, it } from 'vitest';
import { skillUsedCheck } from './skill-used.js';
import { memfsWorkspace } from './test-support/memfs-workspace.js';
import type { CheckContext } from './types.js';

const { context: files } = memfsWorkspace({});
const withSkills = (skills?: CheckContext['skills']): CheckContext => ({ ...files, ...(skills && { skills }) });
const check = (expect?: boolean) => ({
  kind: 'skillUsed' as const,
  skill: 'pdf',
  ...(expect !== undefined && { expect }),
});

describe('skillUsed', () => {
  it('passes when the model loaded the skill, by default', async () => {
    const context = withSkills([{ name: 'pdf', used: true, step: 2 }]);
    await expect(skillUsedCheck.evaluate(check(), context)).resolves.toEqual({ passed: true });
  });

  it('fails when the model did not load it', async () => {
    await expect(skillUsedCheck.evaluate(check(), withSkills([{ name: 'pdf', used: false }]))).resolves.toEqual({
      passed: false,
      message: 'the model did not load the skill pdf',
    });
  });

  it('with expect false, passes when it was not loaded and fails, naming the step, when it was', async () => {
    await expect(skillUsedCheck.evaluate(check(false), withSkills([{ name: 'pdf', used: false }]))).resolves.toEqual({
      passed: true,
    });
    await expect(
      skillUsedCheck.evaluate(check(false), withSkills([{ name: 'pdf', used: true, step: 3 }])),
    ).resolves.toEqual({
      passed: false,
      message: 'the model loaded the skill pdf at step 3, which this case must not do',
    });
  });

  it('passes in an arm without the skill, which has nothing to assert', async () => {
    for (const context of [withSkills(), withSkills([{ name: 'docx', used: true }])]) {
      for (const expected of [true, false]) {
        await expect(skillUsedCheck.evaluate(check(expected), context)).resolves.toEqual({ passed: true });
      }
    }
  });

  it('fails when there is no trajectory to tell by, whatever it expects', async () => {
    const message = 'cannot tell whether the skill pdf was used: the agent gave no trajectory';
    for (const expected of [true, false]) {
      await expect(skillUsedCheck.evaluate(check(expected), withSkills([{ name: 'pdf' }]))).resolves.toEqual({
        passed: false,
        message,
      });
    }
  });
});
