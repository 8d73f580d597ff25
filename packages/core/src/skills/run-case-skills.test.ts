import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase } from '../case/run-case.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import { loadSkill, type Skill } from './load-skill.js';

// An arm's skills in a trial: installed after setup where the CLI looks, not counted as the agent's
// changes, their use read from the trajectory, and an edit by the agent reported.

let root: string;
let skill: Skill;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-case-skills-')));
  await mkdir(join(root, 'skills', 'pdf'), { recursive: true });
  await writeFile(
    join(root, 'skills', 'pdf', 'SKILL.md'),
    '---\nname: pdf\ndescription: PDF forms.\n---\nSay PDF-SKILL.\n',
  );
  skill = await loadSkill(join(root, 'skills', 'pdf'));
  await mkdir(join(root, 'tmp'));
});
afterAll(() => removeTree(root));

/** One line of Claude Code's stream-json: an assistant message with one tool call. */
function toolUse(name: string, input: Record<string, unknown>): string {
  const message = {
    id: 'm1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'tool_use', id: 't1', name, input }],
  };
  return JSON.stringify({ type: 'assistant', message, session_id: 's' });
}

const testCase: Case = {
  id: 'c',
  prompt: 'Fill the form.',
  setup: ['echo setup > setup.txt'],
  checks: [{ kind: 'fileExists', path: 'setup.txt' }],
};
const trajectory = { format: 'claude-code', agent: { name: 'claude-code', preset: 'claude-code' } };
const skills = () => ({ skills: [skill], placement: { scope: 'project' as const, dir: '.claude/skills' } });

describe('runCase with an arm of skills', { timeout: 60_000 }, () => {
  it('installs the skill where the CLI looks, outside the changes, and finds its use at its step', async () => {
    const line = toolUse('Skill', { skill: 'pdf' });
    const result = await runCase(testCase, {
      // The agent sees the installed skill, and says it used it in its stream.
      cmd: `test -f .claude/skills/pdf/SKILL.md && printf '%s\\n' '${line}'`,
      tmpDir: join(root, 'tmp'),
      trajectory,
      skills: skills(),
    });
    expect(result.error).toBeUndefined();
    // The stream names no skills it offered: a skill the model loaded was advertised.
    expect(result.skills).toEqual([
      { name: 'pdf', advertised: true, used: true, step: 2, route: 'tool', tool: 'Skill' },
    ]);
    expect(result.changes).toBeDefined();
    expect(JSON.stringify(result.changes)).not.toContain('SKILL.md');
  });

  it('says a skill was not used, and reports what the agent did to its files', async () => {
    const line = toolUse('Bash', { command: 'echo hi' });
    const result = await runCase(testCase, {
      cmd: `echo rewritten > .claude/skills/pdf/SKILL.md && printf '%s\\n' '${line}'`,
      tmpDir: join(root, 'tmp'),
      trajectory,
      skills: skills(),
    });
    expect(result.skills).toEqual([{ name: 'pdf', used: false, edits: ['edited SKILL.md'] }]);
    expect(result.warnings).toContain('the agent changed the skill pdf: edited SKILL.md');
  });

  it("says a skill was advertised, or not, as the CLI's init event lists what it offered", async () => {
    const init = (skills: string[]) => JSON.stringify({ type: 'system', subtype: 'init', session_id: 's', skills });
    for (const [offered, advertised] of [
      [['pdf', 'verify'], true],
      [['verify'], false],
    ] as const) {
      const lines = [init([...offered]), toolUse('Bash', { command: 'echo hi' })];
      const result = await runCase(testCase, {
        cmd: lines.map((line) => `printf '%s\\n' '${line}'`).join(' && '),
        tmpDir: join(root, 'tmp'),
        trajectory,
        skills: skills(),
      });
      expect(result.skills).toEqual([{ name: 'pdf', advertised, used: false }]);
    }
  });

  it('leaves `used` unknown without a trajectory', async () => {
    const result = await runCase(testCase, { cmd: 'true', tmpDir: join(root, 'tmp'), skills: skills() });
    expect(result.skills).toEqual([{ name: 'pdf' }]);
  });
});
