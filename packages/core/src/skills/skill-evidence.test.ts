import { describe, expect, it } from 'vitest';
import { ATIF_SCHEMA_VERSION, type AtifStep, type Trajectory } from '../agents/trajectory/types.js';
import { skillUse } from './skill-evidence.js';

function trajectory(calls: { name: string; args: Record<string, unknown> }[]): Trajectory {
  const steps: AtifStep[] = [
    { step_id: 1, source: 'user', message: 'Fill in the PDF form; the pdf skill mentions SKILL.md' },
    ...calls.map(
      (call, index): AtifStep => ({
        step_id: index + 2,
        source: 'agent',
        message: '',
        tool_calls: [{ tool_call_id: `c${index}`, function_name: call.name, arguments: call.args }],
      }),
    ),
  ];
  return { schema_version: ATIF_SCHEMA_VERSION, session_id: 's', agent: { name: 'a', version: '1' }, steps };
}

describe('skillUse', () => {
  it.each([
    ['Claude Code', { name: 'Skill', args: { skill: 'pdf' } }, 'tool'],
    ["Claude Code, a plugin's", { name: 'Skill', args: { command: 'docs:pdf' } }, 'tool'],
    ['Gemini CLI', { name: 'activate_skill', args: { name: 'pdf' } }, 'tool'],
    ['opencode', { name: 'skill', args: { name: 'pdf' } }, 'tool'],
    ['a shell read', { name: 'exec_command', args: { cmd: 'cat .agents/skills/pdf/SKILL.md' } }, 'read'],
    ['a file read', { name: 'read_file', args: { absolute_path: '/w/.qwen/skills/pdf/SKILL.md' } }, 'read'],
  ])('finds %s route, at its step', (_, call, route) => {
    const found = skillUse(trajectory([{ name: 'Bash', args: { command: 'ls' } }, call]), 'pdf', []);
    expect(found).toEqual({ step: 3, route, tool: call.name });
  });

  it('finds nothing where the skill is only talked about, or another skill is loaded', () => {
    const calls = [
      { name: 'Bash', args: { command: 'echo pdf' } },
      { name: 'Skill', args: { skill: 'pdf-v2' } },
      { name: 'exec_command', args: { cmd: 'cat skills/other/SKILL.md skills/mypdf/SKILL.md' } },
    ];
    expect(skillUse(trajectory(calls), 'pdf', [])).toBeUndefined();
  });

  it('does not count a shell writing to SKILL.md as loading it, but a read beside a redirect still counts', () => {
    const append = { name: 'Bash', args: { command: "printf '%s\\n' 'More.' >> .claude/skills/pdf/SKILL.md" } };
    const overwrite = {
      name: 'run_shell_command',
      args: { command: 'echo x 2>/dev/null >"/w/.qwen/skills/pdf/SKILL.md"' },
    };
    expect(skillUse(trajectory([append, overwrite]), 'pdf', ['/w/.qwen/skills/pdf'])).toBeUndefined();
    const read = { name: 'exec_command', args: { cmd: 'cat .agents/skills/pdf/SKILL.md > notes.txt 2>&1' } };
    expect(skillUse(trajectory([append, read]), 'pdf', [])).toEqual({ step: 3, route: 'read', tool: 'exec_command' });
  });
});
