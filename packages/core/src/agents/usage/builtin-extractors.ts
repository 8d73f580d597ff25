import { claudeCodeUsage } from './builtin/claude-code.js';
import { codexUsage } from './builtin/codex.js';
import { geminiUsage } from './builtin/gemini.js';
import { opencodeUsage } from './builtin/opencode.js';
import { qwenUsage } from './builtin/qwen.js';
import type { RecordExtractor } from './reducer.js';

/** The built-in extractors by name: one per preset, named like it. */
export const BUILTIN_EXTRACTORS: Readonly<Record<string, RecordExtractor>> = {
  'claude-code': claudeCodeUsage,
  codex: codexUsage,
  gemini: geminiUsage,
  qwen: qwenUsage,
  opencode: opencodeUsage,
};

/** Names of the built-in extractors. */
export const BUILTIN_EXTRACTOR_NAMES: readonly string[] = Object.keys(BUILTIN_EXTRACTORS);
