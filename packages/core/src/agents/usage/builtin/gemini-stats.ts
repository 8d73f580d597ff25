import type { Usage } from '../../../report/model.js';
import { isRecord } from '../json-path.js';
import { addFigures, usageNumber } from '../usage-fields.js';

/** The usage in the `stats` of `-o json`: per-model `tokens`, `roles`, `api`, and `tools`. */
export function documentUsage(stats: Record<string, unknown>): Usage {
  const usage: Usage = {};
  let bestRequests = -1;
  let turns: number | undefined;
  for (const [name, entry] of Object.entries(isRecord(stats.models) ? stats.models : {})) {
    if (!isRecord(entry)) continue;
    const tokens = isRecord(entry.tokens) ? entry.tokens : {};
    addTokens(usage, tokens.input, tokens.prompt, tokens.cached, tokens.candidates);
    const requests = mainRequests(entry);
    if (requests !== undefined) {
      turns = addFigures(turns, requests);
      if (requests > bestRequests) {
        bestRequests = requests;
        usage.model = name;
      }
    }
  }
  usage.turns = turns;
  const tools = isRecord(stats.tools) ? stats.tools : {};
  usage.toolCalls = usageNumber(tools.totalCalls);
  return usage;
}

/** The usage in the `stats` of a stream's `result` event (per-model flat figures, `tool_calls`), with its count of replies. */
export function streamUsage(stats: Record<string, unknown>, replies: number): Usage {
  const usage: Usage = {};
  let mostInput = -1;
  for (const [name, entry] of Object.entries(isRecord(stats.models) ? stats.models : {})) {
    if (!isRecord(entry)) continue;
    addTokens(usage, entry.input, entry.input_tokens, entry.cached, entry.output_tokens);
    const input = usageNumber(entry.input_tokens) ?? 0;
    if (input > mostInput) {
      mostInput = input;
      usage.model = name;
    }
  }
  if (replies > 0) usage.turns = replies;
  usage.toolCalls = usageNumber(stats.tool_calls);
  return usage;
}

/** Adds one model's tokens: `input` is uncached; without it, the whole `prompt` less the cached part. */
function addTokens(usage: Usage, uncached: unknown, prompt: unknown, cachedValue: unknown, outputValue: unknown) {
  const cached = usageNumber(cachedValue);
  const whole = usageNumber(prompt);
  const input = usageNumber(uncached) ?? (whole === undefined ? undefined : whole - (cached ?? 0));
  if (input !== undefined) usage.inputTokens = addFigures(usage.inputTokens, input);
  if (cached !== undefined) usage.cachedInputTokens = addFigures(usage.cachedInputTokens, cached);
  const output = usageNumber(outputValue);
  if (output !== undefined) usage.outputTokens = addFigures(usage.outputTokens, output);
}

/** Requests of the main conversation (`roles.main`), or all of the model's when it has no roles. */
function mainRequests(entry: Record<string, unknown>): number | undefined {
  const roles = isRecord(entry.roles) ? entry.roles : undefined;
  if (roles) {
    const main = isRecord(roles.main) ? roles.main : undefined;
    return main ? (usageNumber(main.totalRequests) ?? 0) : 0;
  }
  const api = isRecord(entry.api) ? entry.api : {};
  return usageNumber(api.totalRequests);
}
