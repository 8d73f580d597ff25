import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { preset as presetDefinition } from '../../packages/core/src/agents/preset.js';
import { skillPlacement } from '../../packages/core/src/skills/skill-placement.js';
import type { ModelRequest, ModelScript, Reply } from '../support/model-endpoint/index.js';

// A conversation that proves a CLI put a skill in front of the model and let it load the skill: the
// first reply loads it by the CLI's own route only when its name and description are in the request
// (else it just answers), and the next one writes answer.txt with a marker that only the skill's
// body holds, only when that marker came back in the conversation (the loaded skill). The workspace
// is never named: answer.txt is relative (the CLIs' shells run in the workspace) and Codex's
// SKILL.md path is the one its request gives, so the script serves `gz-bench run` trials too.

/** A skill as the script knows it: its front matter, and a marker that only its body holds. */
export interface ScriptedSkill {
  name: string;
  description: string;
  /** Text in SKILL.md's body (not its front matter), e.g. `SKILL-BODY-MARKER-…`; no quotes or spaces. */
  marker: string;
}

/** A tool call of the agent's own. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** How a CLI's model loads a skill, as the request offers it and as the trajectory then shows it. */
export interface SkillRoute {
  /** `tool`: the CLI's skill tool; `read`: its shell reads SKILL.md (Codex has no skill tool). */
  route: 'tool' | 'read';
  /** The tool the model calls, as the request offers it. */
  tool: string;
  /** Its argument that names the skill (`tool`) or holds the command (`read`). */
  argument: string;
  /** The call's function name in the trajectory (Codex reports a shell call as `command_execution`). */
  trajectoryTool: string;
}

/** What one CLI's model does in the skill conversation. */
interface SkillDialect extends SkillRoute {
  /** The call that loads the skill, or undefined when the request gives no way to (no path to read). */
  load(skill: ScriptedSkill, text: string): ToolCall | undefined;
  /** A call of its shell tool that runs `command` in the workspace. */
  shell(command: string): ToolCall;
}

const DIALECTS = {
  'claude-code': {
    route: 'tool',
    tool: 'Skill',
    argument: 'skill',
    trajectoryTool: 'Skill',
    load: (skill) => ({ name: 'Skill', arguments: { skill: skill.name } }),
    shell: (command) => ({ name: 'Bash', arguments: { command, description: 'Write the answer' } }),
  },
  codex: {
    route: 'read',
    tool: 'exec_command',
    argument: 'cmd',
    trajectoryTool: 'command_execution',
    load: (skill, text) => {
      const path = codexSkillPath(text, skill.name);
      return path === undefined ? undefined : { name: 'exec_command', arguments: { cmd: `cat '${path}'` } };
    },
    shell: (command) => ({ name: 'exec_command', arguments: { cmd: command } }),
  },
  gemini: {
    route: 'tool',
    tool: 'activate_skill',
    argument: 'name',
    trajectoryTool: 'activate_skill',
    load: (skill) => ({ name: 'activate_skill', arguments: { name: skill.name } }),
    shell: (command) => ({ name: 'run_shell_command', arguments: { command } }),
  },
  qwen: {
    route: 'tool',
    tool: 'skill',
    argument: 'skill',
    trajectoryTool: 'skill',
    load: (skill) => ({ name: 'skill', arguments: { skill: skill.name } }),
    shell: (command) => ({ name: 'run_shell_command', arguments: { command, is_background: false } }),
  },
  opencode: {
    route: 'tool',
    tool: 'skill',
    argument: 'name',
    trajectoryTool: 'skill',
    load: (skill) => ({ name: 'skill', arguments: { name: skill.name } }),
    shell: (command) => ({ name: 'bash', arguments: { command, description: 'Write the answer' } }),
  },
} satisfies Record<string, SkillDialect>;

/** The presets the skill conversation knows. */
export type SkillPreset = keyof typeof DIALECTS;

/** The presets the skill conversation knows, in order. */
export const SKILL_PRESETS = Object.keys(DIALECTS) as SkillPreset[];

/** Each preset's route to load a skill. */
export const SKILL_ROUTES: Readonly<Record<SkillPreset, SkillRoute>> = DIALECTS;

/** The file the script has the agent write, relative to the workspace, holding the marker and a newline. */
export const ANSWER_FILE = 'answer.txt';

/** What the model answers when the first request does not carry the skill. */
export const NOT_ADVERTISED_TEXT = 'No skill of that name was offered.';

/** What the model answers when loading the skill did not bring its body back. */
export const NOT_LOADED_TEXT = 'The skill was offered, but loading it did not give its instructions.';

/** The final text once answer.txt is written. */
export const SKILL_FINAL_TEXT = 'Done: answer.txt holds the marker from the skill.';

/** What the model writes to answer.txt when it ignores the skill: not the marker. */
export const WRONG_ANSWER = 'a-guess-without-the-skill';

/** The file the model writes for a prompt it answers without the skill, and its content. */
export const PLAIN_FILE = { path: 'hello.txt', text: 'hi' } as const;

/** The final text once a shell call of the `ignore`, `edit` or plain-prompt conversations ran. */
export const DONE_TEXT = 'Done.';

/** The line the `edit` conversation appends to the installed SKILL.md. */
export const SKILL_EDIT_LINE = 'Added by the agent.';

/**
 * What the model does with the skill. `follow`: the conversation above. `ignore`: never loads it,
 * offered or not, and writes WRONG_ANSWER to answer.txt. `edit`: appends SKILL_EDIT_LINE to the
 * skill's SKILL.md where the preset installs it in the workspace, through its shell.
 */
export type SkillBehaviour = 'follow' | 'ignore' | 'edit';

/** What the script may be given. */
export interface SkillScriptOptions {
  /** The model the endpoint says served every reply. @default 'skill-model-served' */
  servedModel?: string;
  /** @default 'follow' */
  behaviour?: SkillBehaviour;
  /**
   * A prompt the model answers without the skill, offered or not: when the request holds this text,
   * it writes PLAIN_FILE through its shell and stops (two steps).
   */
  plainPrompt?: string;
}

/**
 * The skill conversation for `preset`, or for whichever preset's CLI sent each request (`any`: one
 * endpoint serving several CLIs at once, told apart by `presetOf`). With `follow`: step 0 loads the
 * skill by the CLI's route when the request carries its name and description and offers that route,
 * else answers NOT_ADVERTISED_TEXT; step 1 writes answer.txt with the marker when the marker is in the
 * conversation, else answers NOT_LOADED_TEXT; step 2 is the final text. Three steps when the skill is
 * used, one when it is not. `ignore`, `edit` and the plain prompt are one shell call and DONE_TEXT.
 */
export function skillScript(
  preset: SkillPreset | 'any',
  skill: ScriptedSkill,
  options: SkillScriptOptions = {},
): ModelScript {
  const behaviour = options.behaviour ?? 'follow';
  const text = (value: string, usage = { input: 900, output: 10 }): Reply => ({ kind: 'text', text: value, usage });
  const tool = (call: ToolCall, usage: Reply['usage']): Reply => ({ kind: 'tool', ...call, usage });
  // Which of the conversations this request belongs to, and the CLI's dialect.
  const conversation = (request: ModelRequest) => {
    const name = preset === 'any' ? presetOf(request) : preset;
    const plain = options.plainPrompt !== undefined && requestText(request).includes(options.plainPrompt);
    return { name, dialect: name === undefined ? undefined : DIALECTS[name], kind: plain ? 'plain' : behaviour };
  };
  const unknown = (request: ModelRequest) =>
    text(`No known CLI sent this (${request.api}: ${request.toolNames.join(', ')}).`);
  return {
    servedModel: options.servedModel ?? 'skill-model-served',
    steps: [
      (request) => {
        const { name, dialect, kind } = conversation(request);
        if (name === undefined || dialect === undefined) return unknown(request);
        const usage = { input: 1000, output: 20 };
        if (kind === 'plain')
          return tool(dialect.shell(`printf '%s\\n' ${PLAIN_FILE.text} > ${PLAIN_FILE.path}`), usage);
        if (kind === 'ignore') return tool(dialect.shell(`printf '%s\\n' ${WRONG_ANSWER} > ${ANSWER_FILE}`), usage);
        if (kind === 'edit') {
          const file = `${skillPlacement(presetDefinition(name), 'project').dir}/${skill.name}/SKILL.md`;
          return tool(dialect.shell(`printf '%s\\n' '${SKILL_EDIT_LINE}' >> ${file}`), usage);
        }
        const call =
          advertises(request, skill) && offers(request, dialect.tool)
            ? dialect.load(skill, requestText(request))
            : undefined;
        return call === undefined ? text(NOT_ADVERTISED_TEXT) : tool(call, usage);
      },
      (request) => {
        const { dialect, kind } = conversation(request);
        if (dialect === undefined) return unknown(request);
        if (kind !== 'follow') return text(DONE_TEXT, { input: 1100, output: 5 });
        return requestText(request).includes(skill.marker)
          ? tool(dialect.shell(`printf '%s\\n' ${skill.marker} > ${ANSWER_FILE}`), { input: 1100, output: 30 })
          : text(NOT_LOADED_TEXT);
      },
      text(SKILL_FINAL_TEXT, { input: 1200, output: 15 }),
    ],
  };
}

/**
 * The preset whose CLI sent `request`, from the API it came in through and, for chat completions
 * (Qwen Code and opencode both), the shell tool it offers; undefined for none of the five.
 */
export function presetOf(request: ModelRequest): SkillPreset | undefined {
  switch (request.api) {
    case 'anthropic':
      return 'claude-code';
    case 'responses':
      return 'codex';
    case 'gemini':
      return 'gemini';
    case 'chat':
      if (offers(request, DIALECTS.qwen.shell('').name)) return 'qwen';
      return offers(request, DIALECTS.opencode.shell('').name) ? 'opencode' : undefined;
  }
}

/** What the model saw of the skill over one run's requests. */
export interface SkillSeen {
  /** The first request of the conversation carried the skill's name and description. */
  advertised: boolean;
  /** It carried the body's marker too: the CLI put the whole skill up front, not on demand. */
  bodyUpFront: boolean;
  /** A later request carried the marker: loading the skill gave the model its body. */
  loaded: boolean;
}

/** What the model saw of `skill` in `requests` (one run's, in order of arrival). */
export function skillSeen(requests: readonly ModelRequest[], skill: ScriptedSkill): SkillSeen {
  const first = requests.find((request) => request.step === 0);
  const later = requests.filter((request) => request.step !== undefined && request.step > 0);
  return {
    advertised: first !== undefined && advertises(first, skill),
    bodyUpFront: first !== undefined && requestText(first).includes(skill.marker),
    loaded: later.some((request) => requestText(request).includes(skill.marker)),
  };
}

/** Whether the request carries the skill's name and its description. */
export function advertises(request: ModelRequest, skill: ScriptedSkill): boolean {
  const text = requestText(request);
  return text.includes(skill.name) && text.includes(skill.description);
}

/** Whether the request offers the model the tool `name`. */
function offers(request: ModelRequest, name: string): boolean {
  return request.toolNames.includes(name);
}

/** Every string in the request body, joined: the text the model is given, unescaped. */
export function requestText(request: ModelRequest): string {
  return stringsOf(request.body).join('\n');
}

/** The parameters the request declares for the tool `name` (any of the four APIs), or undefined. */
export function toolParameters(request: ModelRequest, name: string): string[] | undefined {
  for (const tool of toolDeclarations(request.body)) {
    const declared = record(tool);
    const fn = record(declared?.function) ?? declared;
    if (fn?.name !== name) continue;
    const schema = record(fn.input_schema ?? fn.parameters ?? fn.parametersJsonSchema);
    return Object.keys(record(schema?.properties) ?? {});
  }
  return undefined;
}

/** A request body's tool declarations: `tools` (Codex's namespaces opened), Gemini's `functionDeclarations`. */
function toolDeclarations(body: unknown): unknown[] {
  const request = record(body);
  const extra = list(request?.input).flatMap((item) =>
    record(item)?.type === 'additional_tools' ? list(record(item)?.tools) : [],
  );
  const flatten = (tools: unknown[]): unknown[] =>
    tools.flatMap((tool) => {
      const entry = record(tool);
      if (entry?.type === 'namespace') return flatten(list(entry.tools));
      if (entry?.functionDeclarations !== undefined) return list(entry.functionDeclarations);
      return [tool];
    });
  return flatten([...list(request?.tools), ...extra]);
}

/**
 * The absolute SKILL.md path Codex lists for the skill `name`: its list gives `(file: r<i>/<name>/SKILL.md)`
 * and a table of roots `` - `r<i>` = `<dir>` `` (or, in other versions, the absolute path itself).
 */
export function codexSkillPath(text: string, name: string): string | undefined {
  const file = new RegExp(`\\(file: ([^()\\s]*/${name}/SKILL\\.md)\\)`).exec(text)?.[1];
  if (file === undefined || file.startsWith('/')) return file;
  const [root, ...rest] = file.split('/');
  const dir = new RegExp(`- \`${root}\` = \`([^\`]+)\``).exec(text)?.[1];
  return dir === undefined ? undefined : [dir, ...rest].join('/');
}

/** Writes the skill's folder `<dir>/<name>/`, its SKILL.md's body holding the marker; resolves to the folder. */
export async function writeSkillFolder(dir: string, skill: ScriptedSkill): Promise<string> {
  const folder = join(dir, skill.name);
  await mkdir(folder, { recursive: true });
  const front = `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n`;
  const body = `\n# ${skill.name}\n\nWrite this marker to ${ANSWER_FILE}, alone on its line: ${skill.marker}\n`;
  await writeFile(join(folder, 'SKILL.md'), front + body);
  return folder;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
