import type { AgentDefinition } from './definition.js';
import { nearestName } from './nearest-name.js';
import { PRESETS, type PresetSpec } from './presets/index.js';
import { shellQuote } from './presets/preset-spec.js';

/** The names of the presets: `claude-code`, `codex`, `gemini`, `qwen`, `opencode`. */
export const PRESET_NAMES: readonly string[] = Object.keys(PRESETS);

/** What a preset can be given. Every field is optional. */
export interface PresetOptions {
  /** The model to ask for (`--model`); default: the CLI's own default. */
  model?: string;
  /** Extra arguments, each one word, placed before the prompt. */
  args?: readonly string[];
  /** The program to run instead of the preset's (`claude`, `codex`, …), e.g. an absolute path. */
  bin?: string;
  /** The agent's name; default: the preset's name, or `preset:model` with a model. */
  name?: string;
  /**
   * Use the login you already have: the CLI's login files under your real HOME (e.g.
   * `.claude/.credentials.json` and `.claude.json`, those alone) are copied into each case HOME,
   * writable there, the real ones never changed. `false` starts the agent logged out, with the API
   * keys of `allowEnv` alone.
   * @default true
   */
  login?: boolean;
}

/** Raised for a preset name gz-bench does not know; the message suggests the nearest. */
export class PresetError extends Error {
  readonly code = 'GZ_BENCH_UNKNOWN_PRESET';
  override name = 'PresetError';
}

/** Whether `name` is a preset's name. */
export function isPresetName(name: string): boolean {
  return Object.hasOwn(PRESETS, name);
}

/** The preset's specification (for `gz-bench doctor`), or undefined for a name that is none. */
export function presetSpec(name: string): PresetSpec | undefined {
  return Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
}

/**
 * The agent definition of a real agent CLI: its headless command in its JSON output mode with its
 * approval prompts off, the environment and case-HOME files it needs, where its login lives, and
 * its built-in usage extractor. `preset('claude-code', { model: 'opus' })` is the agent
 * `claude-code:opus`.
 */
export function preset(name: string, options: PresetOptions = {}): AgentDefinition {
  const spec = presetSpec(name);
  if (!spec) throw new PresetError(unknownPresetMessage(name));
  const { model, args = [], bin = spec.bin } = options;
  if (model !== undefined && model.trim() === '') throw new PresetError(`preset ${name}: the model is empty`);
  const cmd = spec.command({
    bin: shellQuote(bin),
    model: model === undefined ? '' : `${spec.modelFlag} ${shellQuote(model)}`,
    args: args.map(shellQuote).join(' '),
  });
  return {
    name: options.name ?? (model === undefined ? spec.name : `${spec.name}:${model}`),
    cmd,
    preset: spec.name,
    ...(model === undefined ? {} : { model }),
    env: { ...spec.env },
    allowEnv: [...spec.allowEnv],
    home: spec.home(model),
    ...(options.login !== false && spec.login.length > 0 && { login: [...spec.login], loginOptional: true }),
    usage: { builtin: spec.name },
    skillDirs: { ...spec.skillDirs },
  };
}

/** `unknown preset "claud" (did you mean claude-code?); presets are …`. */
export function unknownPresetMessage(name: string): string {
  const nearest = nearestName(name, PRESET_NAMES);
  const hint = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
  return `unknown preset "${name}"${hint}; presets are ${PRESET_NAMES.join(', ')}`;
}
