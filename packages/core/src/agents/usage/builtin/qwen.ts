import type { RecordExtractor } from '../reducer.js';
import { claudeStyleReducer } from './claude-style.js';
import { claudeStyleTrajectory } from './claude-style-trajectory.js';

/**
 * Qwen Code, `-o json`: one line holding a JSON array of Claude-style messages (or, with
 * `stream-json`, one per line), read whole. Tokens and turns from its `result`, tool calls from
 * `result.stats.tools.totalCalls`, the model from its `assistant` messages (the requested one: Qwen
 * Code does not report the served model).
 */
export const qwenUsage: RecordExtractor = {
  source: 'documents',
  reducer: claudeStyleReducer,
  trajectory: () => claudeStyleTrajectory({ cacheBesideInput: false }),
};
