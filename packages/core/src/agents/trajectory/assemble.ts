import { randomUUID } from 'node:crypto';
import type { Usage } from '../../report/model.js';
import { boundStep, cutText, TRAJECTORY_LIMITS } from './bounds.js';
import type { StreamStep, StreamTrajectory } from './builder.js';
import {
  ATIF_SCHEMA_VERSION,
  type AtifFinalMetrics,
  type AtifStep,
  type Trajectory,
  type TrajectorySummary,
} from './types.js';

/** What a trial's trajectory is made of. */
export interface TrajectoryParts {
  /** The stream format it was read in (`claude-code`, `codex`, …). */
  format: string;
  /** What the format's builder made of the agent's stdout. */
  stream: StreamTrajectory;
  /** The case's prompt: the trajectory's first step. */
  prompt: string;
  /** The usage read from the same stdout, for `final_metrics`. */
  usage: Usage | undefined;
  /** The agent as the run defines it: its name, its preset, the model it asked for. */
  agent: { name: string; preset?: string; model?: string };
}

// ATIF's prompt_tokens counts every input token; these formats' usage counts cache reads (and
// writes) beside the input, the others (OpenAI-style) within it.
const CACHE_BESIDE_INPUT = new Set(['claude-code', 'gemini', 'opencode']);

/**
 * The trial's trajectory in ATIF: the prompt as a first `user` step, then the stream's steps with
 * `step_id`s from 1, each within the bounds (TRAJECTORY_LIMITS, whatever the builder did), and at
 * most `TRAJECTORY_LIMITS.steps` of them (the rest counted in `extra.dropped_steps`).
 */
export function assembleTrajectory(parts: TrajectoryParts): Trajectory {
  const { stream, agent } = parts;
  const prompt = cutText(parts.prompt, TRAJECTORY_LIMITS.text);
  const kept = stream.steps.slice(0, TRAJECTORY_LIMITS.steps);
  const dropped = (stream.droppedSteps ?? 0) + (stream.steps.length - kept.length);
  const steps = [
    {
      step_id: 1,
      source: 'user' as const,
      message: prompt.text,
      ...(prompt.cut && { extra: { truncated: ['message'] } }),
    },
    ...kept.map((step, index) => liftResultMarks({ ...boundStep(step), step_id: index + 2 })),
  ];
  const cut = prompt.cut || dropped > 0 || steps.some((step) => step.extra?.truncated !== undefined || resultCut(step));
  const name = agent.preset ?? agent.name;
  const model = stream.model ?? parts.usage?.model ?? agent.model;
  const extra = agentExtra(name, agent.name, stream.offeredSkills);
  const finalMetrics = finalMetricsOf(parts.usage, parts.format, steps.length + dropped);
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: stream.sessionId ?? randomUUID(),
    agent: {
      name,
      version: stream.agentVersion ?? 'unknown',
      ...(model !== undefined && { model_name: model }),
      ...(extra !== undefined && { extra }),
    },
    steps,
    ...(dropped > 0 && {
      notes: `The stream had ${dropped} more steps than the ${TRAJECTORY_LIMITS.steps} kept; total_steps counts them.`,
    }),
    final_metrics: finalMetrics,
    extra: { format: parts.format, ...(dropped > 0 && { dropped_steps: dropped }), ...(cut && { truncated: true }) },
  };
}

function resultCut(step: AtifStep): boolean {
  const marks = step.extra?.results;
  return Array.isArray(marks) && marks.some((mark) => (mark as { truncated?: unknown }).truncated === true);
}

/**
 * The step with its results' own marks (`is_error`, `truncated`) moved to its `extra.results`:
 * ATIF's result has no `extra`, and a strict reader refuses one.
 */
function liftResultMarks(step: StreamStep): AtifStep {
  const { observation, ...rest } = step;
  if (observation === undefined) return rest;
  const marks = observation.results.flatMap((result, index) =>
    result.extra === undefined
      ? []
      : [
          {
            index,
            ...(result.source_call_id !== undefined && { source_call_id: result.source_call_id }),
            ...result.extra,
          },
        ],
  );
  const results = observation.results.map(({ extra: _marks, ...result }) => result);
  return {
    ...rest,
    observation: { results },
    ...(marks.length > 0 && { extra: { ...rest.extra, results: marks } }),
  };
}

function finalMetricsOf(usage: Usage | undefined, format: string, totalSteps: number): AtifFinalMetrics {
  const metrics: AtifFinalMetrics = {};
  if (usage?.inputTokens !== undefined) {
    const beside = CACHE_BESIDE_INPUT.has(format) ? (usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0) : 0;
    metrics.total_prompt_tokens = usage.inputTokens + beside;
  }
  if (usage?.outputTokens !== undefined) metrics.total_completion_tokens = usage.outputTokens;
  if (usage?.cachedInputTokens !== undefined) metrics.total_cached_tokens = usage.cachedInputTokens;
  if (usage?.costUsd !== undefined) metrics.total_cost_usd = usage.costUsd;
  metrics.total_steps = totalSteps;
  const extra = {
    ...(usage?.cacheWriteTokens !== undefined && { cache_write_tokens: usage.cacheWriteTokens }),
    ...(usage?.costSource !== undefined && { cost_source: usage.costSource }),
  };
  if (Object.keys(extra).length > 0) metrics.extra = extra;
  return metrics;
}

/** What the report row says of a trajectory: its format, its file (when written), its counts. */
export function summarizeTrajectory(trajectory: Trajectory, format: string, file?: string): TrajectorySummary {
  const toolCalls = trajectory.steps.reduce((sum, step) => sum + (step.tool_calls?.length ?? 0), 0);
  return {
    format,
    ...(file !== undefined && { file }),
    steps: trajectory.steps.length,
    toolCalls,
    ...(trajectory.extra?.truncated === true && { truncated: true as const }),
  };
}

/**
 * What ATIF's agent has no field for: gz-bench's own name of the agent where it differs from the
 * CLI's, and the skills the CLI says it offered the model (`offered_skills`).
 */
function agentExtra(
  name: string,
  agentName: string,
  offeredSkills: string[] | undefined,
): Record<string, unknown> | undefined {
  const extra = {
    ...(name !== agentName && { gz_bench_agent: agentName }),
    ...(offeredSkills !== undefined && { offered_skills: offeredSkills }),
  };
  return Object.keys(extra).length > 0 ? extra : undefined;
}
