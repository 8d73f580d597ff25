import { copyFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { StreamTrajectory } from '../../packages/core/src/agents/trajectory/builder.js';
import { BUILTIN_EXTRACTORS } from '../../packages/core/src/agents/usage/builtin-extractors.js';
import { forEachJsonLine } from '../../packages/core/src/agents/usage/read-output.js';
import { REPO_ROOT } from '../support/paths.js';
import { SHELL_COMMANDS, SHELL_FINAL_TEXT } from './long-script.js';

/** The steps a built-in format's trajectory builder reads from a whole stdout file. */
export async function streamTrajectory(stdoutFile: string, format: string): Promise<StreamTrajectory> {
  const builder = BUILTIN_EXTRACTORS[format]?.trajectory?.();
  if (!builder) throw new Error(`the built-in format ${format} builds no trajectory`);
  await forEachJsonLine(stdoutFile, 8 << 20, (record) => builder.add(record));
  return builder.finish();
}

/**
 * With GZB_RECORD_TRANSCRIPTS=1, keeps the run's stdout as the unit tests' transcript `name`
 * (packages/core/src/agents/usage/test-support/transcripts/<name>.stdout).
 */
export async function recordTranscript(stdoutFile: string, name: string): Promise<void> {
  if (process.env.GZB_RECORD_TRANSCRIPTS !== '1') return;
  await copyFile(stdoutFile, `${REPO_ROOT}/packages/core/src/agents/usage/test-support/transcripts/${name}.stdout`);
}

/**
 * The trajectory of the shell conversation: one agent step per model reply, the first three each
 * with one call of `tool` whose `command` argument is the script's, in order, each answered by its
 * result, and the last with the final text and no tool call.
 */
export function expectShellTrajectory(trajectory: StreamTrajectory, tool: string, results: string[]): void {
  const { steps } = trajectory;
  expect(steps.map((step) => step.source)).toEqual(['agent', 'agent', 'agent', 'agent']);
  const calls = steps.flatMap((step) => step.tool_calls ?? []);
  expect(calls.map((call) => [call.function_name, call.arguments.command])).toEqual(
    SHELL_COMMANDS.map((command) => [tool, command]),
  );
  for (const [index, step] of steps.slice(0, SHELL_COMMANDS.length).entries()) {
    const [call] = step.tool_calls ?? [];
    expect(step.tool_calls, `step ${index + 1}`).toHaveLength(1);
    expect(step.observation?.results.map((result) => [result.source_call_id, result.content?.trim()])).toEqual([
      [call?.tool_call_id, results[index]],
    ]);
  }
  expect(new Set(calls.map((call) => call.tool_call_id)).size).toBe(SHELL_COMMANDS.length);
  expect(steps.at(-1)).toMatchObject({ message: SHELL_FINAL_TEXT });
  expect(steps.at(-1)?.tool_calls).toBeUndefined();
  for (const step of steps) expect(Number.isNaN(Date.parse(step.timestamp ?? ''))).toBe(false);
}
