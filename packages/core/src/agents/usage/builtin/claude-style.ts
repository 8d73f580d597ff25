import type { Usage } from '../../../report/model.js';
import { isRecord } from '../json-path.js';
import type { UsageReducer } from '../reducer.js';
import { usageNumber } from '../usage-fields.js';

/**
 * The stream format Claude Code prints with `--output-format stream-json --verbose` (and, as one
 * line, with `json`), which Qwen Code copies: `assistant` messages carrying the served model and
 * `tool_use` blocks, and one closing `result` with the run's summed usage, turns and cost.
 */
export function claudeStyleReducer(): UsageReducer {
  let result: Record<string, unknown> | undefined;
  let model: string | undefined;
  let sawAssistant = false;
  // Claude Code prints a message once per content block, all under the message's id: count each
  // tool call once, by its own id.
  const toolUseIds = new Set<string>();
  let anonymousToolUses = 0;
  // While it runs, each reply's usage arrives on its messages (once per content block, under the
  // reply's id; output tokens are a placeholder there): the figures so far, counted once per reply.
  const replies = new Map<string, { input: number; output: number; cached: number; written: number }>();
  const reducer: UsageReducer = {
    add(record) {
      // Qwen Code's `json` format is one array of these records.
      if (Array.isArray(record)) {
        for (const element of record) reducer.add(element);
        return;
      }
      if (!isRecord(record)) return;
      if (record.type === 'result') {
        result = record;
        return;
      }
      if (record.type !== 'assistant' || !isRecord(record.message)) return;
      sawAssistant = true;
      const { message } = record;
      if (typeof message.id === 'string' && isRecord(message.usage)) {
        const tokens = message.usage;
        const figure = (value: unknown, earlier: number | undefined) => Math.max(earlier ?? 0, usageNumber(value) ?? 0);
        const earlier = replies.get(message.id);
        replies.set(message.id, {
          input: figure(tokens.input_tokens, earlier?.input),
          output: figure(tokens.output_tokens, earlier?.output),
          cached: figure(tokens.cache_read_input_tokens, earlier?.cached),
          written: figure(tokens.cache_creation_input_tokens, earlier?.written),
        });
      }
      // Sub-agents (parent_tool_use_id set) may run on another model; the main thread's is the served one.
      const main = record.parent_tool_use_id === null || record.parent_tool_use_id === undefined;
      if (main && typeof message.model === 'string' && message.model !== '<synthetic>') model = message.model;
      if (!Array.isArray(message.content)) return;
      for (const block of message.content) {
        if (!isRecord(block) || block.type !== 'tool_use') continue;
        if (typeof block.id === 'string') toolUseIds.add(block.id);
        else anonymousToolUses++;
      }
    },
    current() {
      if (result) return reducer.finish();
      if (replies.size === 0) return undefined;
      // As the closing result counts them: input without the cache, cache reads and writes beside it.
      const sum = (pick: (reply: { input: number; output: number; cached: number; written: number }) => number) =>
        [...replies.values()].reduce((total, reply) => total + pick(reply), 0);
      return {
        inputTokens: sum((reply) => reply.input),
        outputTokens: sum((reply) => reply.output),
        cachedInputTokens: sum((reply) => reply.cached),
        cacheWriteTokens: sum((reply) => reply.written),
        turns: replies.size,
      };
    },
    finish() {
      const usage: Usage = {};
      const counted = usageNumber(statsToolCalls(result));
      if (counted !== undefined) usage.toolCalls = counted;
      else if (sawAssistant) usage.toolCalls = toolUseIds.size + anonymousToolUses;
      usage.model = model ?? firstModelKey(result);
      if (!result) return usage;
      const tokens = isRecord(result.usage) ? result.usage : {};
      usage.inputTokens = usageNumber(tokens.input_tokens);
      usage.outputTokens = usageNumber(tokens.output_tokens);
      usage.cachedInputTokens = usageNumber(tokens.cache_read_input_tokens);
      usage.cacheWriteTokens = usageNumber(tokens.cache_creation_input_tokens);
      usage.costUsd = usageNumber(result.total_cost_usd);
      usage.turns = usageNumber(result.num_turns);
      return usage;
    },
  };
  return reducer;
}

/** Qwen Code's own count, `result.stats.tools.totalCalls`. */
function statsToolCalls(result: Record<string, unknown> | undefined): unknown {
  const stats = result?.stats;
  return isRecord(stats) && isRecord(stats.tools) ? stats.tools.totalCalls : undefined;
}

/** The model named by `modelUsage` (Claude Code's `json` format has no assistant messages). */
function firstModelKey(result: Record<string, unknown> | undefined): string | undefined {
  const byModel = result?.modelUsage;
  if (!isRecord(byModel)) return undefined;
  return Object.keys(byModel)[0];
}
