import type { Usage } from '../../../report/model.js';
import { isRecord } from '../json-path.js';
import type { RecordExtractor } from '../reducer.js';
import { addFigures, usageNumber } from '../usage-fields.js';
import { codexTrajectory } from './codex-trajectory.js';

/** Items of `codex exec --json` that are the agent's tool calls. */
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

/**
 * Codex, `exec --json` (JSONL): tokens summed over every `turn.completed`; tool calls are the
 * `item.completed` items that ran a command, changed files, called an MCP tool or searched the web.
 * Codex prints no cost, no model and no count of model calls.
 */
export const codexUsage: RecordExtractor = {
  source: 'lines',
  trajectory: codexTrajectory,
  reducer() {
    const usage: Usage = {};
    let toolCalls = 0;
    let sawItems = false;
    return {
      add(record) {
        if (!isRecord(record)) return;
        if (record.type === 'turn.completed' && isRecord(record.usage)) {
          const tokens = record.usage;
          add(usage, 'inputTokens', tokens.input_tokens);
          add(usage, 'cachedInputTokens', tokens.cached_input_tokens);
          add(usage, 'cacheWriteTokens', tokens.cache_write_input_tokens);
          add(usage, 'outputTokens', tokens.output_tokens);
        } else if (record.type === 'item.completed' && isRecord(record.item)) {
          sawItems = true;
          if (TOOL_ITEMS.has(String(record.item.type))) toolCalls++;
        }
      },
      finish: () => (sawItems || Object.keys(usage).length > 0 ? { ...usage, toolCalls } : usage),
    };
  },
};

function add(
  usage: Usage,
  field: 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'outputTokens',
  value: unknown,
) {
  const figure = usageNumber(value);
  if (figure !== undefined) usage[field] = addFigures(usage[field], figure);
}
