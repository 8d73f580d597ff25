/**
 * The trajectory of one trial in ATIF, the Agent Trajectory Interchange Format (Harbor's RFC 0001,
 * v1.4): the agent's steps in order, each with its text, its tool calls and their results, and its
 * metrics where the CLI reports them. Fields ATIF has no place for go in `extra`.
 */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.4';

/** One tool call of an agent step. */
export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  /** The call's arguments as the CLI reported them (the shell command, the file and its content). */
  arguments: Record<string, unknown>;
}

/** The result of a tool call, or of an action without one. */
export interface AtifObservationResult {
  /** The `tool_call_id` this result answers. */
  source_call_id?: string;
  /** The result's text, bounded (its step's `extra.results` says when it was cut). */
  content?: string;
}

/** Token figures of one step, where the CLI reports them. */
export interface AtifMetrics {
  /** Every input token, cached ones included. */
  prompt_tokens?: number;
  completion_tokens?: number;
  /** The part of `prompt_tokens` served from the cache. */
  cached_tokens?: number;
  cost_usd?: number;
  extra?: Record<string, unknown>;
}

/** One step: the prompt (`user`), a system message, or one model reply with its tool calls (`agent`). */
export interface AtifStep {
  /** From 1, consecutive. */
  step_id: number;
  /** ISO 8601, where the CLI reports one. */
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  model_name?: string;
  /** The step's text; may be empty. Bounded (see `extra.truncated`). */
  message: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  /**
   * gz-bench: `truncated` (the fields that were cut), and `results`: what ATIF has no field for on a
   * result, one entry per result that has any, `{ index, source_call_id?, is_error?, truncated? }`
   * (`index` into `observation.results`).
   */
  extra?: Record<string, unknown>;
}

/** Totals over the trajectory. */
export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps?: number;
  extra?: Record<string, unknown>;
}

/** A whole trajectory, as `trajectory.json` holds it. */
export interface Trajectory {
  schema_version: typeof ATIF_SCHEMA_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name?: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  notes?: string;
  final_metrics?: AtifFinalMetrics;
  /** gz-bench: `format` (the stream format read), `truncated` (steps dropped past the bound). */
  extra?: Record<string, unknown>;
}

/** What a report row says of its trial's trajectory; the steps themselves are in `file`. */
export interface TrajectorySummary {
  /** The stream format it was read from: a built-in name (`claude-code`, `codex`, `gemini`, `qwen`, `opencode`). */
  format: string;
  /** `trajectory.json` as the report names it (relative to the Vitest root); absent when logs are off. */
  file?: string;
  /** Steps of every source, the prompt included. */
  steps: number;
  toolCalls: number;
  /** Steps or text were cut at the bounds. */
  truncated?: true;
}
