import type { AtifObservationResult, AtifStep } from './types.js';

/**
 * What one CLI's stream yields of its trajectory, before gz-bench bounds it and adds the prompt: the
 * agent steps in order (their `step_id`s are set later), and what the stream says of the session.
 */
export interface StreamTrajectory {
  steps: StreamStep[];
  /** The CLI's own session id, where it prints one. */
  sessionId?: string;
  /** The CLI's version, where it prints one. */
  agentVersion?: string;
  /** The model that served the run, where the stream names it. */
  model?: string;
  /**
   * What the CLI says it put in front of the model at the start (Claude Code's init `skills`; Qwen
   * Code's init `slash_commands`, which list its skills among its commands), where it says it.
   */
  offeredSkills?: string[];
  /** Steps the builder counted but did not keep, past `TRAJECTORY_LIMITS.steps` (see bounds.ts). */
  droppedSteps?: number;
}

/**
 * Folds a CLI's output records into its steps, fed the same records as that format's usage reducer,
 * in the same pass: one reader per CLI. One instance per trial.
 */
export interface TrajectoryBuilder {
  add(record: unknown): void;
  finish(): StreamTrajectory;
}

/**
 * A result as a builder makes it: with an `extra` of its own (`is_error`, `truncated`), which the
 * assembler moves to its step's `extra.results`, since ATIF has no `extra` on a result.
 */
export type StreamResult = AtifObservationResult & { extra?: Record<string, unknown> };

/** A step as a builder makes it: an ATIF step whose results may carry their own `extra`. */
export type StreamStep = Omit<AtifStep, 'observation'> & { observation?: { results: StreamResult[] } };
