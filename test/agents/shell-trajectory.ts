import { copyFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import { assembleTrajectory } from '../../packages/core/src/agents/trajectory/assemble.js';
import { agentTrajectoryFormat } from '../../packages/core/src/agents/trajectory/formats.js';
import { TrajectorySchema } from '../../packages/core/src/agents/trajectory/schema.js';
import type { Trajectory } from '../../packages/core/src/agents/trajectory/types.js';
import { readAgentOutput } from '../../packages/core/src/agents/usage/extract-usage.js';
import { REPO_ROOT } from '../support/paths.js';
import { SHELL_COMMANDS, SHELL_FINAL_TEXT } from './long-script.js';

/** The prompt the trajectories below start with. */
export const SHELL_PROMPT = 'Run the commands.';

/**
 * The trajectory gz-bench makes of a run's stdout in the preset's own format (usage and steps in one
 * pass, then assembled), validated against the ATIF schema. With GZ_BENCH_RECORD_TRANSCRIPTS=1 the
 * stdout is kept as the unit tests' transcript `name`
 * (packages/core/src/agents/usage/test-support/transcripts/<name>.stdout).
 */
export async function presetTrajectory(
  stdoutFile: string,
  definition: AgentDefinition,
  name: string,
): Promise<Trajectory> {
  const format = agentTrajectoryFormat(definition);
  expect(format, 'the preset names a trajectory format').toBeDefined();
  const read = await readAgentOutput(
    stdoutFile,
    { usage: definition.usage, trajectory: format },
    { maxBytes: 8 << 20 },
  );
  const trajectory = assembleTrajectory({
    format: format ?? '',
    stream: read.stream ?? { steps: [] },
    prompt: SHELL_PROMPT,
    usage: read.usage,
    agent: { name: definition.name, ...(definition.preset !== undefined && { preset: definition.preset }) },
  });
  TrajectorySchema.parse(trajectory);
  if (process.env.GZ_BENCH_RECORD_TRANSCRIPTS === '1') {
    await copyFile(stdoutFile, `${REPO_ROOT}/packages/core/src/agents/usage/test-support/transcripts/${name}.stdout`);
  }
  return trajectory;
}

/**
 * The trajectory of the shell conversation: the prompt, then one agent step per model reply, the
 * first three each with one call of `tool` whose `command` argument is the script's, in order, each
 * answered by its result (trimmed here), and the last with the final text and no tool call.
 */
export function expectShellTrajectory(trajectory: Trajectory, tool: string, results: string[]): void {
  const { steps } = trajectory;
  expect(steps.map((step) => [step.step_id, step.source])).toEqual([
    [1, 'user'],
    [2, 'agent'],
    [3, 'agent'],
    [4, 'agent'],
    [5, 'agent'],
  ]);
  expect(steps[0]?.message).toBe(SHELL_PROMPT);
  const calls = steps.flatMap((step) => step.tool_calls ?? []);
  expect(calls.map((call) => [call.function_name, call.arguments.command])).toEqual(
    SHELL_COMMANDS.map((command) => [tool, command]),
  );
  expect(new Set(calls.map((call) => call.tool_call_id)).size).toBe(SHELL_COMMANDS.length);
  for (const [index, step] of steps.slice(1, 1 + SHELL_COMMANDS.length).entries()) {
    const [call] = step.tool_calls ?? [];
    expect(step.tool_calls, `step ${index + 2}`).toHaveLength(1);
    expect(step.observation?.results.map((result) => [result.source_call_id, result.content?.trim()])).toEqual([
      [call?.tool_call_id, results[index]],
    ]);
  }
  expect(steps.at(-1)).toMatchObject({ message: SHELL_FINAL_TEXT });
  expect(steps.at(-1)?.tool_calls).toBeUndefined();
  for (const step of steps.slice(1)) expect(Number.isNaN(Date.parse(step.timestamp ?? ''))).toBe(false);
  expect(trajectory.final_metrics?.total_steps).toBe(5);
}
