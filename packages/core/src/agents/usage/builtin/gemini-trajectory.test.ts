import { describe, expect, it } from 'vitest';
import { TRAJECTORY_LIMITS } from '../../trajectory/bounds.js';
import type { StreamTrajectory } from '../../trajectory/builder.js';
import { forEachJsonLine } from '../read-output.js';
import { outputFiles, type TranscriptName, transcriptPath } from '../test-support/temp-output.js';
import { geminiTrajectory } from './gemini-trajectory.js';

const output = outputFiles();

async function read(file: string): Promise<StreamTrajectory> {
  const builder = geminiTrajectory();
  await forEachJsonLine(file, 1 << 20, (record) => builder.add(record));
  return builder.finish();
}
const transcript = (name: TranscriptName) => read(transcriptPath(name));
const lines = (...records: unknown[]) => output(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`);

describe('gemini trajectory', () => {
  it('reads the stream-json of a real run: one step per reply, its shell calls answered by their results', async () => {
    // gemini.shell: three run_shell_command calls (the second fails), then the final text.
    const call = (id: string, command: string) => ({
      tool_call_id: `run_shell_command__run_shell_command_${id}_0`,
      function_name: 'run_shell_command',
      arguments: { command },
    });
    const result = (id: string, content: string) => ({
      source_call_id: `run_shell_command__run_shell_command_${id}_0`,
      content,
    });
    expect(await transcript('gemini.shell')).toEqual({
      steps: [
        {
          step_id: 0,
          timestamp: '2026-12-06T04:15:10.845Z',
          source: 'agent',
          message: '',
          tool_calls: [call('1796530510772', "printf 'hi\\n' > hello.txt")],
          observation: { results: [result('1796530510772', '')] },
        },
        {
          step_id: 0,
          timestamp: '2026-12-06T04:15:10.971Z',
          source: 'agent',
          message: '',
          tool_calls: [call('1796530510969', 'cat missing.txt')],
          // Gemini CLI calls a command that exits 1 a success, and prints no exit code.
          observation: { results: [result('1796530510969', 'cat: missing.txt: No such file or directory')] },
        },
        {
          step_id: 0,
          timestamp: '2026-12-06T04:15:11.037Z',
          source: 'agent',
          message: '',
          tool_calls: [call('1796530511031', 'wc -c hello.txt')],
          observation: { results: [result('1796530511031', '3 hello.txt')] },
        },
        { step_id: 0, timestamp: '2026-12-06T04:15:11.098Z', source: 'agent', message: 'Done: hello.txt holds hi.' },
      ],
      sessionId: '798c8cfb-d1bc-44ee-8bf5-b9696a252036',
      model: 'gemini-2.5-pro-served',
    });
  });

  it('reads the -o json document, which holds no tool calls: its final text is the one step', async () => {
    expect(await transcript('gemini')).toEqual({
      steps: [{ step_id: 0, source: 'agent', message: 'Done: hello.txt holds hi.' }],
      sessionId: '9d700036-1ca9-4ccb-b0b8-8255ede7faed',
      model: 'gemini-2.5-pro-served',
    });
  });

  it('joins a reply’s deltas, keeps parallel calls in one step, and makes errors system steps', async () => {
    const at = '2026-01-02T03:04:05.000Z';
    const file = await lines(
      { type: 'init', timestamp: at, session_id: 's', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: at, role: 'user', content: 'the prompt' },
      { type: 'message', timestamp: at, role: 'assistant', content: 'Reading ', delta: true },
      { type: 'message', timestamp: at, role: 'assistant', content: 'both.', delta: true },
      { type: 'tool_use', timestamp: at, tool_name: 'read_file', tool_id: 'a', parameters: { file_path: 'x' } },
      { type: 'tool_use', timestamp: at, tool_name: 'read_file', tool_id: 'b', parameters: { file_path: 'y' } },
      { type: 'tool_result', timestamp: at, tool_id: 'b', status: 'success', output: 'why' },
      {
        type: 'tool_result',
        tool_id: 'a',
        status: 'error',
        error: { type: 'file_not_found', message: 'no x' },
      },
      { type: 'error', timestamp: at, severity: 'warning', message: 'Loop detected, stopping execution' },
      { type: 'result', timestamp: at, status: 'error', error: { type: 'Error', message: 'quota' }, stats: {} },
    );
    expect(await read(file)).toEqual({
      steps: [
        {
          step_id: 0,
          timestamp: at,
          source: 'agent',
          message: 'Reading both.',
          tool_calls: [
            { tool_call_id: 'a', function_name: 'read_file', arguments: { file_path: 'x' } },
            { tool_call_id: 'b', function_name: 'read_file', arguments: { file_path: 'y' } },
          ],
          observation: {
            results: [
              { source_call_id: 'b', content: 'why' },
              { source_call_id: 'a', content: 'no x', extra: { is_error: true, error_type: 'file_not_found' } },
            ],
          },
        },
        {
          step_id: 0,
          timestamp: at,
          source: 'system',
          message: 'Loop detected, stopping execution',
          extra: { severity: 'warning' },
        },
        { step_id: 0, timestamp: at, source: 'system', message: 'quota', extra: { is_error: true } },
      ],
      sessionId: 's',
      model: 'gemini-2.5-pro',
    });
  });

  it('takes hostile records as data: odd types, bad timestamps, huge texts and ids', async () => {
    const huge = 'x'.repeat(TRAJECTORY_LIMITS.text * 3);
    const file = await lines(
      null,
      [1, 2],
      { type: 'tool_use', timestamp: 'yesterday', tool_name: 7, tool_id: 'i'.repeat(1000), parameters: 'rm -rf /' },
      { type: 'tool_result', tool_id: 'i'.repeat(1000), output: huge },
      { type: 'message', timestamp: 1e300, role: 'assistant', content: huge },
      { type: 'message', role: 'assistant', content: { not: 'text' } },
    );
    const { steps } = await read(file);
    expect(steps).toHaveLength(2);
    const [first, second] = steps;
    expect(first?.timestamp).toBeUndefined();
    expect(first?.tool_calls).toEqual([
      { tool_call_id: 'i'.repeat(256), function_name: 'unknown', arguments: { value: 'rm -rf /' } },
    ]);
    expect(first?.observation?.results[0]?.content?.length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.result);
    expect(first?.observation?.results[0]?.source_call_id).toBe('i'.repeat(256));
    expect(second?.timestamp).toBeUndefined();
    expect(second?.message.length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.text);
    expect(second?.extra).toEqual({ truncated: ['message'] });
  });

  it('keeps at most TRAJECTORY_LIMITS.steps steps and counts the rest', async () => {
    const records: unknown[] = [];
    for (let i = 0; i < TRAJECTORY_LIMITS.steps + 5; i++) {
      records.push({
        type: 'tool_use',
        tool_name: 'run_shell_command',
        tool_id: `c${i}`,
        parameters: { command: 'true' },
      });
      records.push({ type: 'tool_result', tool_id: `c${i}`, status: 'success', output: '' });
    }
    const stream = await read(await lines(...records));
    expect(stream.steps).toHaveLength(TRAJECTORY_LIMITS.steps);
    expect(stream.droppedSteps).toBe(5);
  });
});
