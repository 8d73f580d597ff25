import { agentPath } from './paths.js';

// A suite with skill arms for the fake skill-reader agent (fixtures/agents/skill-reader.mjs): its
// "asks" case passes only when the skill's body reached the agent, its "hello" one must not load it.

/** The skill-reader agent on the prompt; it prints Claude Code's stream-json. */
export const SKILL_READER_CMD = `node '${agentPath('skill-reader.mjs')}' "{{prompt}}"`;

/** A SKILL.md of `name` whose body is `body`. */
export function skillFile(name: string, body: string, description = `Answers questions about ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

/** The case whose answer only the skill `answers` knows. */
export const ASKS_CASE = {
  id: 'asks',
  prompt: 'What is the answer?',
  checks: [
    { kind: 'fileContains', path: 'answer.txt', text: 'forty-two' },
    { kind: 'skillUsed', skill: 'answers' },
  ],
};

/** The suite, with the arms `none` and `v1`, and its skill folder beside it, under `bench/`. */
export function skillSuiteFiles(cases: object[]): Record<string, string | object> {
  return {
    'bench/skills.bench.json': { name: 'skills', arms: { none: [], v1: ['./skills/answers'] }, cases },
    'bench/skills/answers/SKILL.md': skillFile('answers', 'ANSWER: forty-two'),
  };
}
