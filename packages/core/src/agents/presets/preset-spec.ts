import type { HomeFile } from '../definition.js';

/** The parts of a preset's command that the user chooses. */
export interface CommandParts {
  /** The program, shell-quoted. */
  bin: string;
  /** The model flag and its value, shell-quoted, or '' for the CLI's default model. */
  model: string;
  /** Extra arguments, shell-quoted and joined, or ''. */
  args: string;
}

/** What gz-bench knows of one agent CLI: how to run it unattended and read its usage. */
export interface PresetSpec {
  /** The preset's name, also its usage extractor's. */
  name: string;
  /** One line for `gz-bench doctor` and the README. */
  title: string;
  /** The npm package that installs it. */
  npmPackage: string;
  /** The program it runs by default. */
  bin: string;
  /** The flag that selects a model. */
  modelFlag: string;
  /** The command template: headless, JSON output, approvals off, the prompt last. */
  command(parts: CommandParts): string;
  /** Constants set for it: telemetry, update checks and first-run prompts off. */
  env: Record<string, string>;
  /** Variables of the user's environment it may use (names or `PREFIX_*`). */
  allowEnv: string[];
  /** Files its case HOME starts with (settings with telemetry and updates off, a provider from the environment). */
  home(model: string | undefined): HomeFile[];
  /** Where its login lives under HOME, for running with the user's own login. */
  login: string[];
  /** Variables of which one must be set for it to reach a model, unless a login file exists. */
  credentials: string[];
  /** Where it discovers skills: relative to the workspace (project scope) and to HOME (user scope). */
  skillDirs: SkillDirs;
}

/** Where an agent discovers skills, each `<dir>/<name>/SKILL.md`. */
export interface SkillDirs {
  /** Relative to the workspace, e.g. `.claude/skills`. */
  project: string;
  /** Relative to HOME, e.g. `.claude/skills`. */
  user: string;
}

/** A word for the shell: as it is when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Joins the words of a command, dropping empty parts. */
export function joinCommand(...parts: string[]): string {
  return parts.filter((part) => part !== '').join(' ');
}
