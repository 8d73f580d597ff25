import { isRecord } from '../usage/json-path.js';
import type { StreamResult, StreamStep } from './builder.js';
import type { AtifToolCall } from './types.js';

// Ids come from the agent's stream: long enough for any real one, short enough to keep files small.
const MAX_ID_LENGTH = 256;

/** `piece` after `text` (a blank line between), keeping at most twice `limit` characters for `cutText` to mark. */
export function appendCapped(text: string, piece: string, limit: number): string {
  const joined = text === '' ? piece : `${text}\n\n${piece}`;
  return joined.length > 2 * limit ? joined.slice(0, 2 * limit) : joined;
}

/** A tool call's id as the stream gives it (a string, cut to a sane length), else `call_<n>`. */
export function toolCallId(value: unknown, serial: number): string {
  if (typeof value === 'string' && value !== '') return value.slice(0, MAX_ID_LENGTH);
  return `call_${serial}`;
}

/** An ISO 8601 timestamp from the stream's own (an ISO string, or milliseconds since the epoch), or undefined. */
export function isoTimestamp(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value)) {
    return undefined;
  }
  return Number.isNaN(new Date(value).getTime()) ? undefined : value;
}

/** A tool result's text: a string as it is, content blocks' texts joined, anything else as JSON. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  if (Array.isArray(content)) {
    return content
      .map((block) => {
        if (typeof block === 'string') return block;
        if (isRecord(block) && typeof block.text === 'string') return block.text;
        return isRecord(block) && typeof block.type === 'string' ? `[${block.type}]` : JSON.stringify(block);
      })
      .join('\n');
  }
  return JSON.stringify(content) ?? '';
}

/** Adds a tool call to a step's calls. */
export function addToolCall(step: StreamStep, call: AtifToolCall): void {
  if (step.tool_calls === undefined) step.tool_calls = [];
  step.tool_calls.push(call);
}

/** Adds a result to a step's observation. */
export function addResult(step: StreamStep, result: StreamResult): void {
  if (step.observation === undefined) step.observation = { results: [] };
  step.observation.results.push(result);
}
