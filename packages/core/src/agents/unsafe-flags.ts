import { shellCommands } from './shell-words.js';

/** Flags that turn off an agent's approval prompts whatever program takes them. */
const ALWAYS_UNSAFE = new Set([
  '--dangerously-skip-permissions', // Claude Code, opencode
  '--allow-dangerously-skip-permissions', // Claude Code: offers the bypass mode
  '--dangerously-bypass-approvals-and-sandbox', // Codex
  '--full-auto', // Codex
  '--yolo', // Codex, Gemini CLI, Qwen Code
  '--force', // Cursor's agent
  '--auto-approve',
  '--yes-always', // aider
  '--dangerously-allow-all', // Amp
  '--allow-all-tools', // GitHub Copilot CLI
  '--trust-all-tools', // Amazon Q Developer CLI
]);

/** `--flag value` / `--flag=value` pairs whose value turns approvals off. */
const UNSAFE_VALUES: Record<string, readonly string[]> = {
  '--permission-mode': ['bypassPermissions'], // Claude Code
  '--approval-mode': ['yolo'], // Gemini CLI, Qwen Code
  '--ask-for-approval': ['never'], // Codex
  '--sandbox': ['danger-full-access'], // Codex
};

/** Flags that are unsafe only for the programs that define them that way (`-y` is often "yes" elsewhere). */
const PROGRAM_FLAGS: Record<string, { flags: readonly string[]; values?: Record<string, readonly string[]> }> = {
  gemini: { flags: ['-y'] },
  qwen: { flags: ['-y'] },
  codex: { flags: [], values: { '-a': ['never'], '-s': ['danger-full-access'] } },
  opencode: { flags: ['--auto'] },
};

/** Codex's `-c key=value` settings that do the same as its flags. */
const UNSAFE_SETTINGS = /^(?:approval_policy\s*=\s*["']?never|sandbox_mode\s*=\s*["']?danger-full-access)\b/;

/**
 * The flags in a command template that turn off an agent's own approval prompts
 * (`--dangerously-skip-permissions`, `--yolo`, `--permission-mode bypassPermissions`, `-y` for Gemini
 * CLI and Qwen Code, …), as written, in order, each once. The template is split into words as a
 * shell would (quotes, `$(…)`, `${X:+…}`), so only whole flags count: `--forced-colors` is not
 * `--force`, and a prompt or a file name that mentions `--yolo` in quotes is one word that is not a
 * flag.
 */
export function unsafeFlags(cmd: string): string[] {
  const found: string[] = [];
  const note = (flag: string) => {
    if (!found.includes(flag)) found.push(flag);
  };
  for (const words of shellCommands(cmd)) {
    const programs = words.map(programName);
    const extra = Object.entries(PROGRAM_FLAGS).filter(([program]) => programs.includes(program));
    for (const [position, word] of words.entries()) {
      const next = words[position + 1];
      if (ALWAYS_UNSAFE.has(word)) note(word);
      const [name, inlineValue] = splitFlag(word);
      const values =
        UNSAFE_VALUES[name] ?? extra.map(([, spec]) => spec.values?.[name]).find((list) => list !== undefined);
      if (
        values &&
        (inlineValue === undefined ? next !== undefined && values.includes(next) : values.includes(inlineValue))
      ) {
        note(inlineValue === undefined ? `${name} ${next}` : word);
      }
      if (extra.some(([, spec]) => spec.flags.includes(word))) note(word);
      if ((name === '-c' || name === '--config') && programs.includes('codex')) {
        const setting = inlineValue ?? next;
        if (setting !== undefined && UNSAFE_SETTINGS.test(setting))
          note(inlineValue === undefined ? `${name} ${setting}` : word);
      }
    }
  }
  return found;
}

function splitFlag(word: string): [string, string | undefined] {
  if (!word.startsWith('--')) return [word, undefined];
  const equals = word.indexOf('=');
  return equals < 0 ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)];
}

/**
 * The program a word names, for the flags only some programs define: its last path segment, without
 * an npm version or package scope, so `/usr/bin/gemini`, `npx @google/gemini-cli@latest` and
 * `qwen-code` count.
 */
function programName(word: string): string {
  const base = (word.split('/').pop() ?? word).replace(/@[^@]*$/, '').replace(/\.(?:js|mjs|cjs|exe)$/, '');
  if (base === 'gemini' || base === 'gemini-cli') return 'gemini';
  if (base === 'qwen' || base === 'qwen-code') return 'qwen';
  if (base === 'codex') return 'codex';
  if (base === 'opencode' || base === 'opencode-ai') return 'opencode';
  return base;
}

/** An agent whose command turns off its own approval prompts, and the flags that do it. */
export interface UnsafeAgent {
  name: string;
  flags: string[];
}

/** The agents among `agents` whose commands carry unsafe flags, with those flags. */
export function unsafeAgents(agents: ReadonlyArray<{ name: string; cmd: string }>): UnsafeAgent[] {
  return agents.flatMap(({ name, cmd }) => {
    const flags = unsafeFlags(cmd);
    return flags.length === 0 ? [] : [{ name, flags }];
  });
}

/**
 * The message that stops a run whose agents turn off their own approval prompts, naming each agent
 * and its flags and saying how to allow it (one line, without the `gz-bench:` prefix).
 */
export function unsafeGateMessage(agents: readonly UnsafeAgent[]): string {
  const list = agents.map(({ name, flags }) => `${name} (${flags.join(', ')})`).join(', ');
  const [subject, their, they] =
    agents.length === 1 ? ['this agent turns', 'its', 'it'] : ['these agents turn', 'their', 'they'];
  return (
    `${subject} off ${their} own approval prompts, so ${they} can run any command without asking: ${list}; ` +
    'allow this with --unsafe (unsafe: true in the plugin options), best in the sandbox (--sandbox bwrap)'
  );
}
