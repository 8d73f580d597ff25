import type { Usage } from '../report/model.js';

/** A field of `Usage` that an extractor can fill. */
export type UsageField = Exclude<keyof Usage, 'costSource'>;

/**
 * How the usage of an agent is read from its whole stdout:
 * - `builtin`: a preset's own extractor (`claude-code`, `codex`, `gemini`, `qwen`, `opencode`);
 * - `regex`: a regular expression whose named groups are usage fields (`(?<inputTokens>\d+)`), tested
 *   against the whole stdout (in windows of whole lines when it is longer than the extraction's
 *   `maxBytes`); the last match counts, or every match summed with `sum`;
 * - `json`: the stdout is one JSON document; each field is a path into it (`usage.input_tokens`,
 *   `stats.models.*.tokens.input`, `[-1].result.usage`);
 * - `jsonl`: every line that parses as JSON is one record; each field is a path into a record, taken
 *   from the last record that has it, or summed over every record with `sum`.
 */
export type UsageExtractor =
  | { builtin: string }
  | { regex: string; flags?: string; sum?: boolean }
  | { json: Partial<Record<UsageField, string>> }
  | { jsonl: Partial<Record<UsageField, string>>; sum?: boolean };

/** A file that an agent's case HOME starts with, e.g. a settings file that turns telemetry off. */
export interface HomeFile {
  /** Relative to the case HOME, without `..`. */
  path: string;
  content: string;
}

/**
 * One agent of a run, as a preset or the user's config defines it: the command and everything the
 * command needs around it. Every field but `name` and `cmd` is optional.
 */
export interface AgentDefinition {
  /** The agent's name: its column on the scoreboard, its describe block in Vitest. */
  name: string;
  /** The command template, as `cmd` (`{{prompt}}`, `{{promptFile}}`, `{{dir}}`). */
  cmd: string;
  /** The preset it came from, e.g. `claude-code`. */
  preset?: string;
  /** The model it was asked to use, to compare with the model that served it. */
  model?: string;
  /** Constants set for the agent command alone (e.g. `IS_SANDBOX=1`). */
  env?: Record<string, string>;
  /** Variables of the harness the agent receives: names, or `PREFIX_*` patterns. */
  allowEnv?: string[];
  /** Files its case HOME starts with. */
  home?: HomeFile[];
  /**
   * Files or directories under the user's real HOME (relative paths) that the agent's login lives in:
   * copied into each case HOME, writable there, the real ones never changed.
   */
  login?: string[];
  /**
   * Pass over a `login` path that does not exist without a warning: a preset names where its CLI
   * keeps a login, which someone who runs it on an API key does not have.
   */
  loginOptional?: boolean;
  /** How its usage is read from its stdout. */
  usage?: UsageExtractor;
  /**
   * The stream format its stdout's steps are read in, for its trajectory (`claude-code`, `codex`,
   * `qwen`, …), or `false` for none. Default: its built-in usage extractor's name, where that
   * format has steps.
   */
  trajectory?: string | false;
  /**
   * Where it discovers skills, for the arms of a run: relative to the workspace (`project`) and to
   * its HOME (`user`). Default: `.agents/skills` for both, the Agent Skills standard's own place.
   */
  skillDirs?: { project?: string; user?: string };
  /** At most this many of its trials run at once (providers rate-limit), within the run's own limit. */
  concurrency?: number;
}
