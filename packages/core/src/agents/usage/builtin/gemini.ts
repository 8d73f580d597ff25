import type { Usage } from '../../../report/model.js';
import { isRecord } from '../json-path.js';
import type { RecordExtractor } from '../reducer.js';
import { addFigures, usageNumber } from '../usage-fields.js';

/**
 * Gemini CLI, `-o json`: one pretty-printed document, read whole. Tokens summed over every model of
 * `stats.models` (`tokens.input` is the uncached input, `cached` beside it; `candidates` the
 * output); the served model is the one that answered most requests of the main role; turns are
 * those requests; tool calls `stats.tools.totalCalls`. Gemini CLI prints no cost.
 */
export const geminiUsage: RecordExtractor = {
  source: 'documents',
  reducer() {
    let stats: Record<string, unknown> | undefined;
    return {
      add(record) {
        if (isRecord(record) && isRecord(record.stats)) stats = record.stats;
      },
      finish() {
        if (!stats) return undefined;
        const usage: Usage = {};
        let bestRequests = -1;
        let turns: number | undefined;
        for (const [name, entry] of Object.entries(isRecord(stats.models) ? stats.models : {})) {
          if (!isRecord(entry)) continue;
          const tokens = isRecord(entry.tokens) ? entry.tokens : {};
          const cached = usageNumber(tokens.cached);
          const prompt = usageNumber(tokens.prompt);
          const input = usageNumber(tokens.input) ?? (prompt === undefined ? undefined : prompt - (cached ?? 0));
          if (input !== undefined) usage.inputTokens = addFigures(usage.inputTokens, input);
          if (cached !== undefined) usage.cachedInputTokens = addFigures(usage.cachedInputTokens, cached);
          const output = usageNumber(tokens.candidates);
          if (output !== undefined) usage.outputTokens = addFigures(usage.outputTokens, output);
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
      },
    };
  },
};

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
