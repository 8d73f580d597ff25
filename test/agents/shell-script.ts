import { readFile, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import { assembleTrajectory } from '../../packages/core/src/agents/trajectory/assemble.js';
import { agentTrajectoryFormat } from '../../packages/core/src/agents/trajectory/formats.js';
import { resultMarks } from '../../packages/core/src/agents/trajectory/result-marks.js';
import { TrajectorySchema } from '../../packages/core/src/agents/trajectory/schema.js';
import type { Trajectory } from '../../packages/core/src/agents/trajectory/types.js';
import { readAgentOutput } from '../../packages/core/src/agents/usage/extract-usage.js';
import type { OfflineRun } from '../support/agent-cli.js';
import type { ModelScript } from '../support/model-endpoint/index.js';

/** A tool call of the agent's own that runs `command` in its shell. */
export type ShellCall = (command: string) => { name: string; arguments: Record<string, unknown> };

/** The final text of the shell conversation. */
export const SHELL_FINAL_TEXT = 'Ran three commands; the last one failed, as expected.';

/**
 * The shell commands the script asks for, in order: one writes hello.txt, one reads it back, one
 * fails (a file that does not exist). No quotes, so that every CLI's echo of them is the same text.
 */
export function shellCommands(workspace: string): string[] {
  return [`echo hi > ${workspace}/hello.txt`, `cat ${workspace}/hello.txt`, `ls ${workspace}/no-such-file`];
}

/** Steps of the shell conversation: three commands, then the final text. */
export const SHELL_STEPS = 4;

/** The conversation: each command as a tool call, then the final text. */
export function shellScript(workspace: string, call: ShellCall, servedModel: string): ModelScript {
  return {
    servedModel,
    steps: [
      ...shellCommands(workspace).map((command, i) => ({
        kind: 'tool' as const,
        ...call(command),
        usage: { input: 1000 + 100 * i, output: 20 + i },
      })),
      { kind: 'text', text: SHELL_FINAL_TEXT, usage: { input: 1400, output: 30 } },
    ],
  };
}

/**
 * The trajectory gz-bench reads from the run's stdout, validated against the ATIF schema. With
 * GZ_BENCH_RECORD_TRANSCRIPTS=1 the stdout is also saved as `transcripts/<name>.stdout`, its temp
 * paths replaced by the fixed ones the unit tests expect.
 */
export async function shellTrajectory(run: OfflineRun, definition: AgentDefinition, name: string): Promise<Trajectory> {
  const format = agentTrajectoryFormat(definition);
  expect(format, 'the preset names a trajectory format').toBeDefined();
  const read = await readAgentOutput(
    run.stdoutFile,
    { usage: definition.usage, trajectory: format },
    { maxBytes: 8 << 20 },
  );
  expect(read.stream).toBeDefined();
  const trajectory = assembleTrajectory({
    format: format as string,
    stream: read.stream ?? { steps: [] },
    prompt: 'Run the commands.',
    usage: read.usage,
    agent: { name: definition.name, ...(definition.preset && { preset: definition.preset }) },
  });
  TrajectorySchema.parse(trajectory);
  if (process.env.GZ_BENCH_RECORD_TRANSCRIPTS === '1') await record(run, name);
  return trajectory;
}

async function record(run: OfflineRun, name: string): Promise<void> {
  const target = new URL(
    `../../packages/core/src/agents/usage/test-support/transcripts/${name}.stdout`,
    import.meta.url,
  );
  const area = run.workspace.replace(/\/workspace$/, '');
  const text = (await readFile(run.stdoutFile, 'utf8'))
    .replaceAll(run.workspace, '/tmp/gz-bench-case/workspace')
    .replaceAll(area, '/tmp/gz-bench-case');
  await writeFile(target, text);
}

/** The agent steps' tool calls, in order, as (function, the argument that holds the command). */
export function toolCalls(trajectory: Trajectory, commandKey: string): Array<{ name: string; command: unknown }> {
  return trajectory.steps.flatMap((step) =>
    (step.tool_calls ?? []).map((call) => ({ name: call.function_name, command: call.arguments[commandKey] })),
  );
}

/** Each tool call's result, in the order of the calls. */
export function toolResults(trajectory: Trajectory): Array<{ content: string | undefined; isError: boolean }> {
  return trajectory.steps.flatMap((step) =>
    (step.tool_calls ?? []).map((call) => {
      const results = step.observation?.results ?? [];
      const index = results.findIndex((entry) => entry.source_call_id === call.tool_call_id);
      return { content: results[index]?.content, isError: resultMarks(step, index)?.is_error === true };
    }),
  );
}

/** The last agent step's text. */
export function finalText(trajectory: Trajectory): string | undefined {
  return trajectory.steps.filter((step) => step.source === 'agent').at(-1)?.message;
}
