import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { opencode } from './opencode.js';
import type { PresetSpec } from './preset-spec.js';
import { qwen } from './qwen.js';

/** Every preset by name. */
export const PRESETS: Readonly<Record<string, PresetSpec>> = {
  'claude-code': claudeCode,
  codex,
  gemini,
  qwen,
  opencode,
};

export type { PresetSpec } from './preset-spec.js';
