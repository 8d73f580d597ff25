import { type core, z } from 'zod';
import {
  ATIF_SCHEMA_VERSION,
  type AtifFinalMetrics,
  type AtifMetrics,
  type AtifObservationResult,
  type AtifStep,
  type AtifToolCall,
  type Trajectory,
} from './types.js';

// Strict objects: ATIF forbids fields outside `extra`, and a reader (Harbor's) refuses them.
const Extra = z.record(z.string(), z.unknown());
const Count = z.number().int().nonnegative();

/** One tool call of an agent step. */
export const AtifToolCallSchema = z.strictObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

/** The result of a tool call, or of an action without one. */
export const AtifObservationResultSchema = z.strictObject({
  source_call_id: z.string().optional(),
  content: z.string().optional(),
});

/** Token figures of one step. */
export const AtifMetricsSchema = z.strictObject({
  prompt_tokens: Count.optional(),
  completion_tokens: Count.optional(),
  cached_tokens: Count.optional(),
  cost_usd: z.number().nonnegative().optional(),
  extra: Extra.optional(),
});

/** One step of a trajectory. */
export const AtifStepSchema = z.strictObject({
  step_id: z.number().int().positive(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  source: z.enum(['system', 'user', 'agent']),
  model_name: z.string().optional(),
  message: z.string(),
  reasoning_content: z.string().optional(),
  tool_calls: z.array(AtifToolCallSchema).optional(),
  observation: z.strictObject({ results: z.array(AtifObservationResultSchema) }).optional(),
  metrics: AtifMetricsSchema.optional(),
  extra: Extra.optional(),
});

/** Totals over a trajectory. */
export const AtifFinalMetricsSchema = z.strictObject({
  total_prompt_tokens: Count.optional(),
  total_completion_tokens: Count.optional(),
  total_cached_tokens: Count.optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  total_steps: Count.optional(),
  extra: Extra.optional(),
});

/**
 * A whole trajectory as `trajectory.json` holds it (ATIF v1.4). Beyond the field shapes it checks
 * what ATIF's own validator does: `step_id`s from 1 and consecutive, and every result's
 * `source_call_id` naming a tool call of its step.
 */
export const TrajectorySchema = z
  .strictObject({
    schema_version: z.literal(ATIF_SCHEMA_VERSION),
    session_id: z.string().min(1),
    agent: z.strictObject({
      name: z.string().min(1),
      version: z.string().min(1),
      model_name: z.string().optional(),
      extra: Extra.optional(),
    }),
    steps: z.array(AtifStepSchema),
    notes: z.string().optional(),
    final_metrics: AtifFinalMetricsSchema.optional(),
    extra: Extra.optional(),
  })
  .superRefine((trajectory, context) => {
    trajectory.steps.forEach((step, index) => {
      if (step.step_id !== index + 1) {
        context.addIssue({ code: 'custom', path: ['steps', index, 'step_id'], message: `expected ${index + 1}` });
      }
      const calls = new Set((step.tool_calls ?? []).map((call) => call.tool_call_id));
      (step.observation?.results ?? []).forEach((result, at) => {
        if (result.source_call_id !== undefined && !calls.has(result.source_call_id)) {
          const path = ['steps', index, 'observation', 'results', at, 'source_call_id'];
          context.addIssue({ code: 'custom', path, message: 'names no tool call of its step' });
        }
      });
    });
  });

/** Where the published schema lives. */
export const TRAJECTORY_JSON_SCHEMA_ID = 'https://unpkg.com/@gz-bench/core/trajectory.schema.json';

/**
 * The JSON Schema of `trajectory.json` (draft-07), generated from TrajectorySchema. The checks of
 * step ids and call ids are not expressible in it and stay with TrajectorySchema.
 */
export function trajectoryJsonSchema(): core.JSONSchema.BaseSchema {
  const { $schema, ...generated } = z.toJSONSchema(TrajectorySchema, { target: 'draft-07', io: 'input' });
  return { $schema, $id: TRAJECTORY_JSON_SCHEMA_ID, title: 'gz-bench trajectory (ATIF v1.4)', ...generated };
}

// The committed interfaces (types.ts) and these schemas must describe the same documents.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agreement: [
  Same<z.infer<typeof AtifToolCallSchema>, AtifToolCall>,
  Same<z.infer<typeof AtifObservationResultSchema>, AtifObservationResult>,
  Same<z.infer<typeof AtifMetricsSchema>, AtifMetrics>,
  Same<z.infer<typeof AtifStepSchema>, AtifStep>,
  Same<z.infer<typeof AtifFinalMetricsSchema>, AtifFinalMetrics>,
  Same<z.infer<typeof TrajectorySchema>, Trajectory>,
] = [true, true, true, true, true, true];
void agreement;
