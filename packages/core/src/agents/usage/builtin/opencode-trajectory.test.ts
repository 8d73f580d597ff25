import { describe, expect, it } from 'vitest';
import { TRAJECTORY_LIMITS } from '../../trajectory/bounds.js';
import type { StreamTrajectory } from '../../trajectory/builder.js';
import { forEachJsonLine } from '../read-output.js';
import { outputFiles, type TranscriptName, transcriptPath } from '../test-support/temp-output.js';
import { opencodeTrajectory } from './opencode-trajectory.js';

const output = outputFiles();

async function read(file: string): Promise<StreamTrajectory> {
  const builder = opencodeTrajectory();
  await forEachJsonLine(file, 1 << 20, (record) => builder.add(record));
  return builder.finish();
}
const transcript = (name: TranscriptName) => read(transcriptPath(name));
const lines = (...records: unknown[]) => output(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
const iso = (ms: number) => new Date(ms).toISOString();

describe('opencode trajectory', () => {
  it('reads a real run: one step per model call, its bash calls with output, exit code and times, its tokens', async () => {
    // opencode.shell: three bash calls (the second exits 1), then the final text.
    const step = (
      start: number,
      callID: string,
      command: string,
      out: string,
      exit: number,
      time: [number, number],
      tokens: { prompt: number; completion: number; cached: number },
    ) => ({
      step_id: 0,
      timestamp: iso(start),
      source: 'agent',
      message: '',
      tool_calls: [
        { tool_call_id: callID, function_name: 'bash', arguments: { command, description: `Runs ${command}` } },
      ],
      observation: {
        results: [
          {
            source_call_id: callID,
            content: out,
            extra: { exit_code: exit, started_at: iso(time[0]), ended_at: iso(time[1]) },
          },
        ],
      },
      metrics: { prompt_tokens: tokens.prompt, completion_tokens: tokens.completion, cached_tokens: tokens.cached },
      extra: { finish_reason: 'tool-calls' },
    });
    expect(await transcript('opencode.shell')).toEqual({
      steps: [
        step(1796530504847, 'call_2', "printf 'hi\\n' > hello.txt", '(no output)', 0, [1796530504840, 1796530505182], {
          prompt: 1200,
          completion: 30,
          cached: 0,
        }),
        step(
          1796530505528,
          'call_3',
          'cat missing.txt',
          'cat: missing.txt: No such file or directory\n',
          1,
          [1796530505520, 1796530505559],
          { prompt: 1300, completion: 31, cached: 200 },
        ),
        step(1796530505654, 'call_4', 'wc -c hello.txt', '3 hello.txt\n', 0, [1796530505648, 1796530505676], {
          prompt: 1400,
          completion: 32,
          cached: 0,
        }),
        {
          step_id: 0,
          timestamp: iso(1796530505822),
          source: 'agent',
          message: 'Done: hello.txt holds hi.',
          metrics: { prompt_tokens: 1500, completion_tokens: 33, cached_tokens: 0 },
          extra: { finish_reason: 'stop' },
        },
      ],
      sessionId: 'ses_db6700139ffeI9m1zBWpMIii0G',
    });
  });

  it('reads the long write transcript as 15 steps, 14 write calls', async () => {
    const { steps } = await transcript('opencode');
    expect(steps).toHaveLength(15);
    expect(steps.flatMap((step) => step.tool_calls?.map((call) => call.function_name) ?? [])).toEqual(
      Array(14).fill('write'),
    );
    expect(steps.reduce((sum, step) => sum + (step.metrics?.prompt_tokens ?? 0), 0)).toBe(19_744);
  });

  it('keeps a failed tool’s error, reasoning, text parts, cost and reasoning tokens; errors are system steps', async () => {
    const file = await lines(
      { type: 'step_start', timestamp: 1000, sessionID: 'ses_1', part: {} },
      { type: 'reasoning', timestamp: 1001, part: { text: 'Think first.' } },
      { type: 'text', timestamp: 1002, part: { text: 'One.' } },
      { type: 'text', timestamp: 1003, part: { text: 'Two.' } },
      {
        type: 'tool_use',
        timestamp: 1004,
        part: {
          tool: 'read',
          callID: 'c1',
          state: { status: 'error', input: { filePath: 'x' }, error: 'no such file' },
        },
      },
      {
        type: 'step_finish',
        timestamp: 1005,
        part: {
          reason: 'tool-calls',
          cost: 0.25,
          tokens: { input: 10, output: 5, reasoning: 3, cache: { read: 2, write: 4 } },
        },
      },
      { type: 'error', timestamp: 1006, error: { name: 'APIError', data: { message: 'rate limited' } } },
    );
    expect(await read(file)).toEqual({
      steps: [
        {
          step_id: 0,
          timestamp: iso(1000),
          source: 'agent',
          message: 'One.\n\nTwo.',
          reasoning_content: 'Think first.',
          tool_calls: [{ tool_call_id: 'c1', function_name: 'read', arguments: { filePath: 'x' } }],
          observation: { results: [{ source_call_id: 'c1', content: 'no such file', extra: { is_error: true } }] },
          metrics: {
            prompt_tokens: 12,
            completion_tokens: 8,
            cached_tokens: 2,
            cost_usd: 0.25,
            extra: { reasoning_tokens: 3, cache_write_tokens: 4 },
          },
          extra: { finish_reason: 'tool-calls' },
        },
        { step_id: 0, timestamp: iso(1006), source: 'system', message: 'rate limited', extra: { is_error: true } },
      ],
      sessionId: 'ses_1',
    });
  });

  it('takes hostile records as data: parts outside a step, odd types, bad times and counts, huge output', async () => {
    const huge = 'y'.repeat(TRAJECTORY_LIMITS.result * 4);
    const file = await lines(
      'just a string',
      {
        type: 'tool_use',
        timestamp: 8.64e15 + 1,
        part: { tool: ['x'], state: { input: [1], output: huge, time: { start: 'soon' } } },
      },
      { type: 'step_finish', part: { tokens: { input: 1.5, output: -1, cache: 'lots' }, cost: 'free' } },
      { type: 'text', part: { text: 42 } },
    );
    const { steps } = await read(file);
    expect(steps).toHaveLength(2);
    const [first, second] = steps;
    expect(first?.timestamp).toBeUndefined();
    expect(first?.tool_calls).toEqual([
      { tool_call_id: 'call_1', function_name: 'unknown', arguments: { value: [1] } },
    ]);
    expect(first?.observation?.results[0]?.content?.length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.result);
    expect(first?.observation?.results[0]?.extra).toBeUndefined();
    expect(first?.metrics).toBeUndefined();
    expect(second).toEqual({ step_id: 0, source: 'agent', message: '' });
  });

  it('keeps at most TRAJECTORY_LIMITS.steps steps and counts the rest', async () => {
    const records: unknown[] = [];
    for (let i = 0; i < TRAJECTORY_LIMITS.steps + 3; i++) {
      records.push(
        { type: 'step_start', part: {} },
        { type: 'step_finish', part: { tokens: { input: 1, output: 1 } } },
      );
    }
    const stream = await read(await lines(...records));
    expect(stream.steps).toHaveLength(TRAJECTORY_LIMITS.steps);
    expect(stream.droppedSteps).toBe(3);
  });
});
