import type { StreamResult, StreamStep } from './builder.js';
import type { AtifToolCall } from './types.js';

/**
 * The bounds that keep `trajectory.json` small whatever the agent printed: characters (UTF-16 code
 * units) of each text, and a count of steps. Cut text ends in a marker that says how much went.
 */
export const TRAJECTORY_LIMITS = {
  /** The prompt, each step's message and its reasoning. */
  text: 16 * 1024,
  /** Each tool result's content. */
  result: 4 * 1024,
  /** Each string within a tool call's arguments (a file's content in a write). */
  argument: 4 * 1024,
  /** A tool call's arguments as JSON, after their strings were cut (deep or wide values). */
  arguments: 16 * 1024,
  /** Steps the CLI's stream may add (the prompt's step aside); later ones are counted, not kept. */
  steps: 2000,
} as const;

/** `text` within `limit` characters (a marker included), and whether it was cut. */
export function cutText(text: string, limit: number): { text: string; cut: boolean } {
  if (text.length <= limit) return { text, cut: false };
  const marker = (dropped: number) => `\n… [gz-bench: ${dropped} more characters cut]`;
  let keep = Math.max(0, limit - marker(text.length).length);
  // Never split a surrogate pair: half a character is not valid text.
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1))) keep--;
  return { text: text.slice(0, keep) + marker(text.length - keep), cut: true };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A tool call's arguments within the bounds: each long string cut, and arguments whose JSON is still
 * too long replaced by a cut copy of that JSON under `_truncated`. `cut` lists what was cut.
 */
export function boundArguments(args: Record<string, unknown>): { arguments: Record<string, unknown>; cut: boolean } {
  let cut = false;
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      const bounded = cutText(value, TRAJECTORY_LIMITS.argument);
      cut ||= bounded.cut;
      return bounded.text;
    }
    if (value === null || typeof value !== 'object') return value;
    // Far deeper than any tool's arguments: the JSON bound below then applies to the rest.
    if (depth > 32) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item, depth + 1);
    return out;
  };
  const walked = walk(args, 0) as Record<string, unknown>;
  const json = safeJson(walked);
  if (json.length <= TRAJECTORY_LIMITS.arguments) return { arguments: walked, cut };
  return { arguments: { _truncated: cutText(json, TRAJECTORY_LIMITS.arguments).text }, cut: true };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // A cycle or a BigInt cannot come from parsed JSON; a builder's own mistake should not throw here.
    return String(value);
  }
}

/**
 * A step within the bounds: message, reasoning, arguments and results cut where they are too long,
 * with `extra.truncated` naming what was cut (results say it in their own `extra`). Returns the
 * same object when nothing needed cutting.
 */
export function boundStep(step: StreamStep): StreamStep {
  const cut: string[] = [];
  const message = cutText(step.message, TRAJECTORY_LIMITS.text);
  if (message.cut) cut.push('message');
  const reasoning =
    step.reasoning_content === undefined ? undefined : cutText(step.reasoning_content, TRAJECTORY_LIMITS.text);
  if (reasoning?.cut) cut.push('reasoning_content');
  const calls = step.tool_calls?.map((call, index): AtifToolCall => {
    const bounded = boundArguments(call.arguments);
    if (!bounded.cut) return call;
    cut.push(`tool_calls[${index}].arguments`);
    return { ...call, arguments: bounded.arguments };
  });
  let resultsCut = false;
  const results = step.observation?.results.map((result): StreamResult => {
    if (result.content === undefined) return result;
    const bounded = cutText(result.content, TRAJECTORY_LIMITS.result);
    if (!bounded.cut) return result;
    resultsCut = true;
    return { ...result, content: bounded.text, extra: { ...result.extra, truncated: true } };
  });
  if (cut.length === 0 && !resultsCut) return step;
  const earlier = Array.isArray(step.extra?.truncated) ? (step.extra.truncated as unknown[]) : [];
  const named = [...new Set([...earlier.map(String), ...cut])];
  return {
    ...step,
    message: message.text,
    ...(reasoning && { reasoning_content: reasoning.text }),
    ...(calls && { tool_calls: calls }),
    ...(results && { observation: { results } }),
    ...(named.length > 0 && { extra: { ...step.extra, truncated: named } }),
  };
}

/**
 * The steps a builder collects, at most `TRAJECTORY_LIMITS.steps` of them: later ones are only
 * counted, so a stream of millions of records costs the memory of the bound. Builders bound each
 * step as they close it (`boundStep`), so that no step keeps a huge text while the stream goes on.
 */
export class StepLog {
  readonly steps: StreamStep[] = [];
  /** Steps past the bound, counted. */
  dropped = 0;

  /** Adds a step, or counts it past the bound; returns whether it was kept. */
  push(step: StreamStep): boolean {
    if (this.steps.length >= TRAJECTORY_LIMITS.steps) {
      this.dropped++;
      return false;
    }
    this.steps.push(step);
    return true;
  }
}
