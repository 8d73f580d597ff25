import { describe, expect, it } from 'vitest';
import { assembleTrajectory } from './assemble.js';
import { boundArguments, cutText, TRAJECTORY_LIMITS } from './bounds.js';
import type { StreamStep } from './builder.js';
import { TrajectorySchema } from './schema.js';

const agentStep = (extra: Partial<StreamStep> = {}): StreamStep => ({
  step_id: 0,
  source: 'agent',
  message: '',
  ...extra,
});
const assemble = (steps: StreamStep[], prompt = 'p', droppedSteps?: number) =>
  assembleTrajectory({
    format: 'claude-code',
    stream: { steps, ...(droppedSteps !== undefined && { droppedSteps }) },
    prompt,
    usage: undefined,
    agent: { name: 'a' },
  });

describe('trajectory bounds', () => {
  it('cuts a long text to its limit with a marker that says how much went, never halving a character', () => {
    const cut = cutText(`${'x'.repeat(99)}😀${'y'.repeat(1000)}`, 140);
    expect(cut.cut).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(140);
    expect(cut.text).toMatch(/\n… \[gz-bench: \d+ more characters cut\]$/);
    expect(cut.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(cutText('short', 140)).toEqual({ text: 'short', cut: false });
  });

  it('cuts a huge file content in a write call, and marks the step', () => {
    const content = 'z'.repeat(10 * 1024 * 1024);
    const trajectory = assemble([
      agentStep({
        tool_calls: [{ tool_call_id: 'c', function_name: 'Write', arguments: { file_path: 'f', content } }],
      }),
    ]);
    const step = trajectory.steps[1];
    const args = step?.tool_calls?.[0]?.arguments;
    expect(args?.file_path).toBe('f');
    expect(String(args?.content).length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.argument);
    expect(step?.extra).toEqual({ truncated: ['tool_calls[0].arguments'] });
    expect(trajectory.extra).toEqual({ format: 'claude-code', truncated: true });
    expect(JSON.stringify(trajectory).length).toBeLessThan(8 * 1024);
  });

  it('replaces arguments whose JSON stays too long (many short strings) with a cut copy of it', () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'.repeat(20)]));
    const bounded = boundArguments(wide);
    expect(bounded.cut).toBe(true);
    expect(Object.keys(bounded.arguments)).toEqual(['_truncated']);
    expect(String(bounded.arguments._truncated).length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.arguments);
  });

  it('cuts messages, reasoning, results and the prompt, and says so', () => {
    const big = 'm'.repeat(100_000);
    const trajectory = assemble(
      [
        agentStep({
          message: big,
          reasoning_content: big,
          tool_calls: [{ tool_call_id: 'c', function_name: 'Bash', arguments: { command: 'cat big' } }],
          observation: { results: [{ source_call_id: 'c', content: big, extra: { is_error: true } }] },
        }),
      ],
      big,
    );
    const [prompt, step] = trajectory.steps;
    expect(prompt?.message.length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.text);
    expect(prompt?.extra).toEqual({ truncated: ['message'] });
    expect(step?.message.length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.text);
    // ATIF's result has no extra: the step carries its results' marks.
    expect(step?.extra).toEqual({
      truncated: ['message', 'reasoning_content'],
      results: [{ index: 0, source_call_id: 'c', is_error: true, truncated: true }],
    });
    const result = step?.observation?.results[0];
    expect(result?.content?.length).toBeLessThanOrEqual(TRAJECTORY_LIMITS.result);
    expect(Object.keys(result ?? {}).sort()).toEqual(['content', 'source_call_id']);
    TrajectorySchema.parse(trajectory);
  });

  it('keeps at most the step bound, numbering from 1, and counts the rest', () => {
    const steps = Array.from({ length: TRAJECTORY_LIMITS.steps + 10 }, (_, i) => agentStep({ message: `s${i}` }));
    const trajectory = assemble(steps, 'p', 5);
    expect(trajectory.steps).toHaveLength(TRAJECTORY_LIMITS.steps + 1);
    expect(trajectory.steps.at(-1)?.step_id).toBe(TRAJECTORY_LIMITS.steps + 1);
    expect(trajectory.extra).toEqual({ format: 'claude-code', dropped_steps: 15, truncated: true });
    expect(trajectory.final_metrics?.total_steps).toBe(TRAJECTORY_LIMITS.steps + 16);
    expect(trajectory.notes).toContain('15 more steps');
    TrajectorySchema.parse(trajectory);
  });

  it('keeps hostile text as data: it is only ever JSON-encoded', () => {
    const hostile = '</script><script>alert(1)</script>\u0000\u2028"\\';
    const trajectory = assemble([agentStep({ message: hostile })], hostile);
    expect(JSON.parse(JSON.stringify(trajectory)).steps[1].message).toBe(hostile);
  });
});
