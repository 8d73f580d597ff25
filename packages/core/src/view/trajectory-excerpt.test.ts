import { describe, it } from 'vitest';
import { shellCommand, trajectoryExcerpt } from './trajectory-excerpt.js';

const step = (id: number, message: string) => ({ step_id: id, source: 'agent', message });

describe('trajectoryExcerpt', () => {
  it('pairs each tool call with its result and reads the shell command', ({ expect }) => {
    const excerpt = trajectoryExcerpt(
      {
        schema_version: 'ATIF-v1.4',
        agent: { name: 'codex', version: '1', model_name: 'm' },
        steps: [
          { step_id: 1, source: 'user', message: 'fix it' },
          {
            step_id: 2,
            source: 'agent',
            message: '',
            tool_calls: [
              { tool_call_id: 'a', function_name: 'shell', arguments: { command: ['bash', '-lc', 'ls -la'] } },
              { tool_call_id: 'b', function_name: 'Write', arguments: { file_path: 'x.txt', content: 'hi' } },
            ],
            observation: {
              results: [
                { source_call_id: 'b', content: 'written' },
                { source_call_id: 'a', content: 'total 0', extra: { is_error: true } },
                { content: 'stray' },
              ],
            },
            metrics: { prompt_tokens: 10, completion_tokens: 2 },
          },
        ],
        final_metrics: { total_prompt_tokens: 10 },
      },
      65536,
    );
    expect(excerpt?.agent).toBe('codex');
    expect(excerpt?.steps).toHaveLength(2);
    const calls = excerpt?.steps[1]?.calls ?? [];
    expect(calls.map((call) => [call.name, call.command, call.result, call.isError, call.brief])).toEqual([
      ['shell', 'ls -la', 'total 0', true, '{"command":["bash","-lc","ls -la"]}'],
      ['Write', undefined, 'written', undefined, 'x.txt'],
    ]);
    expect(excerpt?.steps[1]?.results).toEqual(['stray']);
    expect(excerpt?.steps[1]?.tokens).toEqual({ in: 10, out: 2 });
    expect(excerpt?.total).toEqual({ in: 10 });
  });

  it('leaves out and counts the steps past its bound, keeping the first ones', ({ expect }) => {
    const steps = Array.from({ length: 50 }, (_, index) => step(index + 1, 'x'.repeat(1000)));
    const excerpt = trajectoryExcerpt({ steps }, 10_000);
    expect(excerpt?.steps.length).toBeGreaterThan(5);
    expect(excerpt?.steps.length).toBeLessThan(10);
    expect((excerpt?.steps.length ?? 0) + (excerpt?.omittedSteps ?? 0)).toBe(50);
    expect(excerpt?.steps[0]?.id).toBe(1);
  });

  it('cuts a long message and says so', ({ expect }) => {
    const message = trajectoryExcerpt({ steps: [step(1, 'y'.repeat(20_000))] }, 65536)?.steps[0]?.text ?? '';
    expect(message.length).toBeLessThan(9000);
    expect(message).toMatch(/more characters not shown\)$/);
  });

  it('takes fields only of their type, and nothing that is no trajectory', ({ expect }) => {
    expect(trajectoryExcerpt({ steps: 'no' }, 100)).toBeUndefined();
    expect(trajectoryExcerpt([1, 2], 100)).toBeUndefined();
    const odd = trajectoryExcerpt(
      {
        agent: 5,
        steps: [null, 7, { step_id: 'x', source: {}, message: 3, tool_calls: [null, { arguments: 'str' }] }],
      },
      65536,
    );
    expect(odd?.steps).toEqual([
      {
        id: 1,
        source: 'agent',
        text: '',
        calls: [{ name: '(unnamed tool)', args: '"str"', brief: '"str"' }],
        results: [],
      },
    ]);
  });
});

describe('shellCommand', () => {
  it('reads command or cmd, as a string or an argv', ({ expect }) => {
    expect(shellCommand({ command: 'npm test' })).toBe('npm test');
    expect(shellCommand({ cmd: 'ls' })).toBe('ls');
    expect(shellCommand({ command: ['/bin/zsh', '-c', 'echo hi'] })).toBe('echo hi');
    expect(shellCommand({ command: ['git', 'status'] })).toBe('git status');
    expect(shellCommand({ command: [1, 2] })).toBeUndefined();
    expect(shellCommand({ file_path: 'x' })).toBeUndefined();
    expect(shellCommand('ls')).toBeUndefined();
  });
});
