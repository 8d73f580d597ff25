import { isRecord } from '../json-path.js';
import type { RecordExtractor } from '../reducer.js';
import { documentUsage, streamUsage } from './gemini-stats.js';
import { GeminiTurns, geminiTrajectory } from './gemini-trajectory.js';

/**
 * Gemini CLI, `-o stream-json` (JSONL events, which the preset prints) or `-o json` (one
 * pretty-printed document); both are read line by line. The figures come from the closing `stats`:
 * tokens summed over every model (`input` is the uncached input, `cached` beside it, `candidates` or
 * `output_tokens` the output); tool calls `tools.totalCalls` or `tool_calls`. From the document, the
 * served model is the one that answered most requests of the main role, and turns are those
 * requests; from the stream, which counts no requests, the served model is the one with the most
 * input and turns are the model's replies in the stream. Gemini CLI prints no cost.
 */
export const geminiUsage: RecordExtractor = {
  source: 'lines',
  reducer() {
    let stats: Record<string, unknown> | undefined;
    let streamStats: Record<string, unknown> | undefined;
    const turns = new GeminiTurns();
    return {
      add(record) {
        if (!isRecord(record)) return;
        turns.add(record);
        if (record.type === 'result' && isRecord(record.stats)) streamStats = record.stats;
        else if (record.type === undefined && isRecord(record.stats)) stats = record.stats;
      },
      finish() {
        if (stats) return documentUsage(stats);
        if (streamStats) return streamUsage(streamStats, turns.count);
        return undefined;
      },
    };
  },
  trajectory: geminiTrajectory,
};
