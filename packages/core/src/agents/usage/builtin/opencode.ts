import type { Usage } from '../../../report/model.js';
import { isRecord } from '../json-path.js';
import type { RecordExtractor, UsageReducer } from '../reducer.js';
import { addFigures, usageNumber } from '../usage-fields.js';
import { opencodeTrajectory } from './opencode-trajectory.js';

/**
 * opencode, `run --format json` (JSONL): tokens and cost summed over every `step_finish` (one per
 * model call, which are its turns); output tokens include reasoning tokens, which opencode counts
 * apart; tool calls are its `tool_use` events. The cost is reported only when opencode priced the
 * model (it prints 0 for models it has no prices for). opencode prints no model.
 */
export const opencodeUsage: RecordExtractor = {
  source: 'lines',
  reducer() {
    const usage: Usage = {};
    let steps = 0;
    let cost = 0;
    const toolCalls = new Set<string>();
    let anonymousToolCalls = 0;
    const reducer: UsageReducer = {
      add(record) {
        if (!isRecord(record) || !isRecord(record.part)) return;
        const { part } = record;
        if (record.type === 'step_finish') {
          steps++;
          cost = addFigures(cost, usageNumber(part.cost) ?? 0);
          const tokens = isRecord(part.tokens) ? part.tokens : {};
          const cache = isRecord(tokens.cache) ? tokens.cache : {};
          add(usage, 'inputTokens', tokens.input);
          add(usage, 'outputTokens', tokens.output);
          add(usage, 'outputTokens', tokens.reasoning);
          add(usage, 'cachedInputTokens', cache.read);
          add(usage, 'cacheWriteTokens', cache.write);
        } else if (record.type === 'tool_use') {
          if (typeof part.callID === 'string') toolCalls.add(part.callID);
          else anonymousToolCalls++;
        }
      },
      finish() {
        if (steps === 0) return usage;
        return {
          ...usage,
          ...(cost > 0 ? { costUsd: cost } : {}),
          turns: steps,
          toolCalls: toolCalls.size + anonymousToolCalls,
        };
      },
      // Each model call's figures arrive with its step_finish: the sums so far are the usage so far.
      current: () => reducer.finish(),
    };
    return reducer;
  },
  trajectory: opencodeTrajectory,
};

function add(
  usage: Usage,
  field: 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'cacheWriteTokens',
  value: unknown,
) {
  const figure = usageNumber(value);
  if (figure !== undefined) usage[field] = addFigures(usage[field], figure);
}
