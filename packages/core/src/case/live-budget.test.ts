import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { liveBudget } from './live-budget.js';

/** A sink that keeps what it was given. */
function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** One Claude Code reply of the stream: a message per content block, all under the reply's id. */
function claudeReply(id: string, input: number): string {
  const message = (block: object) =>
    JSON.stringify({
      type: 'assistant',
      message: {
        id,
        model: 'm',
        content: [block],
        usage: { input_tokens: input, output_tokens: 0, cache_read_input_tokens: 10 },
      },
      parent_tool_use_id: null,
    });
  return `${message({ type: 'text', text: 'thinking' })}\n${message({ type: 'tool_use', id: `t-${id}`, name: 'Bash', input: {} })}\n`;
}

function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

describe('liveBudget', () => {
  it('stops a Claude Code stream at the reply that passes maxTokens, counting each reply once', async () => {
    const out = sink();
    const live = liveBudget(out.stream, { builtin: 'claude-code' }, { maxTokens: 2500 }, 1 << 20);
    if (live === undefined) throw new Error('claude-code reads live');
    await write(live.stream, claudeReply('r1', 1000));
    await write(live.stream, claudeReply('r2', 1000));
    expect(live.signal.aborted).toBe(false);
    // The third reply comes in pieces split mid-line: it passes the budget once its first line is whole.
    const third = claudeReply('r3', 1000);
    await write(live.stream, third.slice(0, 40));
    expect(live.signal.aborted).toBe(false);
    await write(live.stream, third.slice(40));
    expect(live.signal.aborted).toBe(true);
    expect(live.stopped()).toEqual({
      usage: { inputTokens: 3000, outputTokens: 0, cachedInputTokens: 30, cacheWriteTokens: 0, turns: 3 },
      reason: 'the agent reported 3000 tokens, over the budget of 2500 (maxTokens)',
    });
    // Everything reached the file, the line that passed the budget too.
    expect(out.text()).toBe(claudeReply('r1', 1000) + claudeReply('r2', 1000) + third);
  });

  it('stops at maxTurns where the stream counts them (opencode steps)', async () => {
    const out = sink();
    const live = liveBudget(out.stream, { builtin: 'opencode' }, { maxTurns: 2 }, 1 << 20);
    const step = `${JSON.stringify({ type: 'step_finish', part: { tokens: { input: 5, output: 1 }, cost: 0 } })}\n`;
    await write(live?.stream as Writable, step.repeat(2));
    expect(live?.signal.aborted).toBe(false);
    await write(live?.stream as Writable, step);
    expect(live?.stopped()?.reason).toBe('the agent reported 3 turns, over the budget of 2 (maxTurns)');
  });

  it('reads a declared jsonl extractor as it goes; a line over the bound is passed on unread', async () => {
    const out = sink();
    const live = liveBudget(out.stream, { jsonl: { costUsd: 'cost' }, sum: true }, { maxCostUsd: 0.25 }, 64);
    const long = `${JSON.stringify({ cost: 1, pad: 'x'.repeat(100) })}\n`;
    await write(live?.stream as Writable, long);
    expect(live?.signal.aborted).toBe(false);
    await write(live?.stream as Writable, '{"cost":0.2}\nnot json\n{"cost":0.1}\n');
    expect(live?.stopped()?.usage).toEqual({ costUsd: 0.3 });
    expect(out.text()).toBe(`${long}{"cost":0.2}\nnot json\n{"cost":0.1}\n`);
  });

  it('has nothing to watch for formats that report only at their end', () => {
    const out = sink();
    for (const builtin of ['codex', 'gemini', 'qwen']) {
      expect(liveBudget(out.stream, { builtin }, { maxTokens: 1 }, 1 << 20)).toBeUndefined();
    }
    expect(liveBudget(out.stream, { json: { inputTokens: 'a' } }, { maxTokens: 1 }, 1 << 20)).toBeUndefined();
    expect(liveBudget(out.stream, { regex: '(?<inputTokens>\\d+)' }, { maxTokens: 1 }, 1 << 20)).toBeUndefined();
  });
});
