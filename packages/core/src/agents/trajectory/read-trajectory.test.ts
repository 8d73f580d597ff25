import { describe, expect, it } from 'vitest';
import { readAgentOutput } from '../usage/extract-usage.js';
import { outputFiles, transcriptPath } from '../usage/test-support/temp-output.js';
import { assembleTrajectory } from './assemble.js';
import { resultMarks } from './result-marks.js';
import { TrajectorySchema } from './schema.js';
import type { Trajectory } from './types.js';

// Real stdout of the CLIs (recorded by test/agents against the loopback model), read as gz-bench
// reads a trial's: usage and steps in one pass, then assembled and checked against ATIF's schema.
const output = outputFiles();
const WS = '/tmp/gz-bench-case/workspace';
const COMMANDS = [`echo hi > ${WS}/hello.txt`, `cat ${WS}/hello.txt`, `ls ${WS}/no-such-file`];
const FINAL = 'Ran three commands; the last one failed, as expected.';

async function trajectoryOf(file: string, format: string, model?: string): Promise<Trajectory> {
  const read = await readAgentOutput(file, { usage: { builtin: format }, trajectory: format }, { maxBytes: 1 << 24 });
  const trajectory = assembleTrajectory({
    format,
    stream: read.stream ?? { steps: [] },
    prompt: 'Run the commands.',
    usage: read.usage,
    agent: { name: `${format}:test`, preset: format, ...(model && { model }) },
  });
  return TrajectorySchema.parse(trajectory) as Trajectory;
}

const calls = (trajectory: Trajectory) =>
  trajectory.steps.flatMap((step) => (step.tool_calls ?? []).map((call) => [call.function_name, call.arguments]));
const results = (trajectory: Trajectory) =>
  trajectory.steps.flatMap((step) =>
    (step.observation?.results ?? []).map((result, index) => [result.content, resultMarks(step, index)]),
  );

describe('claude-code stream-json', () => {
  it('makes one agent step per message, its Bash calls with their results, is_error on the failing one', async () => {
    const trajectory = await trajectoryOf(transcriptPath('claude-code.shell'), 'claude-code');
    expect(trajectory.agent).toEqual({
      name: 'claude-code',
      version: '2.1.197',
      model_name: 'claude-sonnet-4-5-20250929',
      // Its init event lists the skills it offered the model: here only its bundled ones.
      extra: {
        gz_bench_agent: 'claude-code:test',
        offered_skills: expect.arrayContaining(['deep-research', 'verify']),
      },
    });
    expect(trajectory.agent.extra?.offered_skills).toHaveLength(12);
    expect(trajectory.steps.map((step) => [step.step_id, step.source])).toEqual([
      [1, 'user'],
      [2, 'agent'],
      [3, 'agent'],
      [4, 'agent'],
      [5, 'agent'],
    ]);
    expect(trajectory.steps[0]?.message).toBe('Run the commands.');
    expect(calls(trajectory)).toEqual(COMMANDS.map((command) => ['Bash', { command, description: 'Run it' }]));
    expect(results(trajectory)).toEqual([
      ['(Bash completed with no output)', undefined],
      ['hi', undefined],
      [`Exit code 2\nls: cannot access '${WS}/no-such-file': No such file or directory`, { is_error: true }],
    ]);
    expect(trajectory.steps.at(-1)?.message).toBe(FINAL);
    // Anthropic's input leaves the cache out; ATIF's prompt tokens count it in.
    expect(trajectory.steps[1]?.metrics).toEqual({ prompt_tokens: 1000, cached_tokens: 0 });
    expect(trajectory.final_metrics).toMatchObject({ total_prompt_tokens: 4700, total_completion_tokens: 93 });
    expect(trajectory.final_metrics?.total_steps).toBe(5);
    expect(trajectory.extra).toEqual({ format: 'claude-code' });
  });

  it('groups the records Claude Code prints per content block under one message id into one step', async () => {
    const message = (content: unknown) =>
      JSON.stringify({ type: 'assistant', message: { id: 'msg_1', model: 'm', content: [content] } });
    const file = await output(
      [
        message({ type: 'thinking', thinking: 'I should look.' }),
        message({ type: 'text', text: 'Looking.' }),
        message({ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }),
        message({ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'pwd' } }),
        JSON.stringify({
          type: 'user',
          message: { content: [{ type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: '/w' }] }] },
        }),
        JSON.stringify({ type: 'result', result: 'Looking.', session_id: 's-1' }),
      ].join('\n'),
    );
    const trajectory = await trajectoryOf(file, 'claude-code');
    expect(trajectory.session_id).toBe('s-1');
    expect(trajectory.steps[1]).toEqual({
      step_id: 2,
      source: 'agent',
      model_name: 'm',
      message: 'Looking.',
      reasoning_content: 'I should look.',
      tool_calls: [
        { tool_call_id: 't1', function_name: 'Bash', arguments: { command: 'ls' } },
        { tool_call_id: 't2', function_name: 'Bash', arguments: { command: 'pwd' } },
      ],
      observation: { results: [{ source_call_id: 't2', content: '/w' }] },
    });
  });

  it("makes the closing result alone (Claude Code's json format) the one agent step", async () => {
    const file = await output(JSON.stringify({ type: 'result', result: 'All done.', usage: { input_tokens: 5 } }));
    const trajectory = await trajectoryOf(file, 'claude-code');
    expect(trajectory.steps.map((step) => [step.source, step.message])).toEqual([
      ['user', 'Run the commands.'],
      ['agent', 'All done.'],
    ]);
    // No session id in the stream: a fresh one.
    expect(trajectory.session_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('qwen', () => {
  it('reads its json array: run_shell_command calls with their results, and the final text', async () => {
    const trajectory = await trajectoryOf(transcriptPath('qwen.shell'), 'qwen');
    expect(trajectory.agent.version).toBe('0.15.10');
    expect(calls(trajectory)).toEqual(
      COMMANDS.map((command) => ['run_shell_command', { command, is_background: false }]),
    );
    expect(results(trajectory).map(([content]) => content)).toEqual([
      expect.stringContaining('Exit Code: 0'),
      'hi',
      `ls: cannot access '${WS}/no-such-file': No such file or directory`,
    ]);
    expect(trajectory.steps.at(-1)?.message).toBe(FINAL);
    // OpenAI-style input counts the cache within it.
    expect(trajectory.final_metrics?.total_prompt_tokens).toBe(4700);
  });

  it('reads the long run: 14 write_file calls and the final text', async () => {
    const trajectory = await trajectoryOf(transcriptPath('qwen'), 'qwen');
    expect(calls(trajectory)).toHaveLength(14);
    expect(trajectory.steps).toHaveLength(16);
    expect(trajectory.steps[2]?.metrics).toEqual({ prompt_tokens: 1216, completion_tokens: 32, cached_tokens: 200 });
  });
});

describe('codex exec --json', () => {
  it('makes each command a tool call with its output and exit code, the failing one an error', async () => {
    const trajectory = await trajectoryOf(transcriptPath('codex.shell'), 'codex', 'gpt-5-codex');
    expect(trajectory.agent).toEqual({
      name: 'codex',
      version: 'unknown',
      model_name: 'gpt-5-codex',
      extra: { gz_bench_agent: 'codex:test' },
    });
    const agentSteps = trajectory.steps.filter((step) => step.source === 'agent');
    // One model reply per step: three commands one after another, then the final text.
    expect(agentSteps.map((step) => step.tool_calls?.length ?? 0)).toEqual([1, 1, 1, 0]);
    expect(calls(trajectory)).toEqual(
      COMMANDS.map((command) => ['command_execution', { command: `/bin/bash -lc '${command}'` }]),
    );
    expect(results(trajectory)).toEqual([
      ['', { status: 'completed', exit_code: 0 }],
      ['hi\n', { status: 'completed', exit_code: 0 }],
      [
        `ls: cannot access '${WS}/no-such-file': No such file or directory\n`,
        { status: 'failed', exit_code: 2, is_error: true },
      ],
    ]);
    expect(agentSteps.at(-1)?.message).toBe(FINAL);
  });

  it('keeps calls that start before the previous one ends in one step, and turns errors into system steps', async () => {
    const item = (type: string, item: Record<string, unknown>) => JSON.stringify({ type, item });
    const file = await output(
      [
        JSON.stringify({ type: 'thread.started', thread_id: 'th-1' }),
        JSON.stringify({ type: 'turn.started' }),
        item('item.completed', { id: 'r', type: 'reasoning', text: 'Two at once.' }),
        item('item.started', { id: 'a', type: 'command_execution', command: 'ls', status: 'in_progress' }),
        item('item.started', { id: 'b', type: 'command_execution', command: 'pwd', status: 'in_progress' }),
        item('item.completed', {
          id: 'a',
          type: 'command_execution',
          command: 'ls',
          aggregated_output: 'x',
          exit_code: 0,
          status: 'completed',
        }),
        item('item.completed', {
          id: 'b',
          type: 'command_execution',
          command: 'pwd',
          aggregated_output: '/',
          exit_code: 0,
          status: 'completed',
        }),
        item('item.completed', {
          id: 'c',
          type: 'file_change',
          changes: [{ path: 'a.txt', kind: 'add' }],
          status: 'completed',
        }),
        JSON.stringify({ type: 'turn.failed', error: { message: 'stream disconnected' } }),
      ].join('\n'),
    );
    const trajectory = await trajectoryOf(file, 'codex');
    expect(trajectory.session_id).toBe('th-1');
    expect(trajectory.steps.map((step) => [step.source, step.tool_calls?.map((call) => call.function_name)])).toEqual([
      ['user', undefined],
      ['agent', ['command_execution', 'command_execution']],
      ['agent', ['file_change']],
      ['system', undefined],
    ]);
    expect(trajectory.steps[1]?.reasoning_content).toBe('Two at once.');
    expect(trajectory.steps[2]?.tool_calls?.[0]?.arguments).toEqual({ changes: [{ path: 'a.txt', kind: 'add' }] });
    expect(trajectory.steps[3]?.message).toBe('turn failed: stream disconnected');
  });
});
