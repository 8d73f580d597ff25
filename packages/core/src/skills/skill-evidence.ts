import type { AtifToolCall, Trajectory } from '../agents/trajectory/types.js';

// Whether the model loaded a skill, read from the normalized trajectory (never from the CLI's free
// text): a tool call of the CLI's own skill route naming it (Claude Code's `Skill`, Gemini CLI's
// `activate_skill`, opencode's `skill`…), or any tool call that reads the skill's SKILL.md by its
// path (a `cat` through a shell tool, a file-read tool), which is how CLIs without a skill tool load
// one. The first such step is the evidence.

/** How a skill was loaded, and at which trajectory step. */
export interface SkillUse {
  step: number;
  /** `tool`: the CLI's skill tool; `read`: a tool call that reads its SKILL.md. */
  route: 'tool' | 'read';
  /** The tool call's function name. */
  tool: string;
}

/** A CLI's skill tools: function names, and the arguments that may name the skill. */
export const SKILL_TOOLS: readonly { name: string; arguments: readonly string[] }[] = [
  { name: 'Skill', arguments: ['skill', 'command', 'name'] },
  { name: 'activate_skill', arguments: ['name', 'skill'] },
  { name: 'skill', arguments: ['name', 'skill'] },
];

/** The first step at which `trajectory` shows the skill `name` (installed at `dirs`) loaded, or undefined. */
export function skillUse(trajectory: Trajectory, name: string, dirs: readonly string[]): SkillUse | undefined {
  for (const step of trajectory.steps) {
    for (const call of step.tool_calls ?? []) {
      if (namesSkill(call, name)) return { step: step.step_id, route: 'tool', tool: call.function_name };
      if (readsSkillFile(call, name, dirs)) return { step: step.step_id, route: 'read', tool: call.function_name };
    }
  }
  return undefined;
}

function namesSkill(call: AtifToolCall, name: string): boolean {
  const tool = SKILL_TOOLS.find((each) => each.name === call.function_name);
  if (tool === undefined) return false;
  return tool.arguments.some((key) => {
    const value = call.arguments[key];
    // Claude Code names a plugin's skill `plugin:name`; a slash command may carry a leading `/`.
    return typeof value === 'string' && value.replace(/^\//, '').split(':').at(-1) === name;
  });
}

/** Whether any string argument of the call holds a path to the skill's SKILL.md, other than as a shell's output. */
function readsSkillFile(call: AtifToolCall, name: string, dirs: readonly string[]): boolean {
  // `<name>/SKILL.md` as a whole path segment: `mypdf/SKILL.md` is another skill's.
  const own = new RegExp(`(?:^|[\\s/'"=:])${name}/SKILL\\.md`);
  const installed = dirs.map((dir) => `${dir.replace(/\/+$/, '')}/SKILL.md`);
  return stringsOf(call.arguments)
    .map(withoutRedirectTargets)
    .some((text) => own.test(text) || installed.some((path) => text.includes(path)));
}

/**
 * The text without the files that shell redirections write (`> f`, `>> f`, `2> f`, `&> f`, `>| f`):
 * a command that writes to SKILL.md has not read it. `2>&1` names no file and stays.
 */
function withoutRedirectTargets(text: string): string {
  return text.replace(/[0-9&]?>>?\|?\s*(?:'[^']*'|"[^"]*"|[^\s;&|<>'"]+)/g, ' ');
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}
