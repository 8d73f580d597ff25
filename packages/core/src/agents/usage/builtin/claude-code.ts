import type { RecordExtractor } from '../reducer.js';
import { claudeStyleReducer } from './claude-style.js';
import { claudeStyleTrajectory } from './claude-style-trajectory.js';

/**
 * Claude Code, `-p --output-format stream-json --verbose` (or `json`): tokens, cache, cost (its own
 * estimate) and turns from the closing `result` line; the served model from the main thread's
 * `assistant` messages (else the requested one, the key of `result.modelUsage`); tool calls are the
 * `tool_use` blocks.
 */
export const claudeCodeUsage: RecordExtractor = {
  source: 'lines',
  reducer: claudeStyleReducer,
  trajectory: () => claudeStyleTrajectory({ cacheBesideInput: true }),
};
