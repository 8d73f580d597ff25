import type { Skill } from '@gz-bench/core';

/**
 * The suite that `gz-bench init --skill DIR` writes beside a skill: the arms `none` and `current`,
 * cases whose prompt asks for what the skill's description promises (it should trigger), and one it
 * has nothing to do with (it must not). The task checks are a start, to be made the skill's own.
 */
export function skillSuite(skill: Skill, folder: string, schemaPath: string | undefined): object {
  const { name, description } = skill;
  return {
    ...(schemaPath !== undefined && { $schema: schemaPath }),
    name: `${name}-skill`,
    description: `Does the ${name} skill help, and does it trigger only when it should? Arm "none" runs without it, "current" with it.`,
    arms: { none: [], current: [folder] },
    cases: [
      {
        id: 'uses-skill',
        prompt: `${description}\n\nDo this for the files in this directory, then say what you did.`,
        checks: [{ kind: 'agentExit' }, { kind: 'skillUsed', skill: name }],
      },
      {
        id: 'uses-skill-notes',
        prompt: `Write notes.md: how you would approach this, step by step: ${description}`,
        checks: [
          { kind: 'fileExists', path: 'notes.md' },
          { kind: 'skillUsed', skill: name },
        ],
      },
      {
        id: 'leaves-skill-alone',
        prompt: 'Create hello.txt containing the word hi, and nothing else.',
        checks: [
          { kind: 'fileContains', path: 'hello.txt', text: 'hi' },
          { kind: 'skillUsed', skill: name, expect: false },
        ],
      },
    ],
  };
}
