import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { extractUsage } from './extract-usage.js';
import { outputFiles, transcriptPath } from './test-support/temp-output.js';

// Each transcript is a real CLI's stdout from the offline end-to-end tests: 15 model calls (14 tool
// calls, then a final text) whose endpoint reported 19,744 input tokens (1,400 of them cached on
// steps 1–7, 300 written to the cache on step 0) and 750 output tokens.
const output = outputFiles();
const MAX = { maxBytes: 1 << 20 };

describe('built-in extractors on real transcripts', () => {
  it('claude-code: the result line’s figures, the served model, and every tool_use block', async () => {
    expect(await extractUsage(transcriptPath('claude-code'), { builtin: 'claude-code' }, MAX)).toEqual({
      inputTokens: 19_744,
      outputTokens: 750,
      cachedInputTokens: 1_400,
      cacheWriteTokens: 300,
      costUsd: 0.07202700000000001,
      costSource: 'agent',
      model: 'claude-sonnet-4-5-20250929',
      turns: 15,
      toolCalls: 14,
    });
  });

  it('codex: turn.completed usage and the command items', async () => {
    expect(await extractUsage(transcriptPath('codex'), { builtin: 'codex' }, MAX)).toEqual({
      inputTokens: 19_744,
      outputTokens: 750,
      cachedInputTokens: 1_400,
      cacheWriteTokens: 0,
      toolCalls: 14,
    });
  });

  it('gemini: stats.models tokens (input uncached), the served model, requests and tool calls', async () => {
    expect(await extractUsage(transcriptPath('gemini'), { builtin: 'gemini' }, MAX)).toEqual({
      inputTokens: 19_744 - 1_400,
      outputTokens: 750,
      cachedInputTokens: 1_400,
      model: 'gemini-2.5-pro-served',
      turns: 15,
      toolCalls: 14,
    });
  });

  it('gemini: the stream-json result’s stats, the model with the most input, replies counted in the stream', async () => {
    // gemini.shell: four replies (three shell calls, then the text) of 1,200–1,500 input tokens
    // (200 of them cached on the second) and 30–33 output tokens.
    expect(await extractUsage(transcriptPath('gemini.shell'), { builtin: 'gemini' }, MAX)).toEqual({
      inputTokens: 5_400 - 200,
      outputTokens: 126,
      cachedInputTokens: 200,
      model: 'gemini-2.5-pro-served',
      turns: 4,
      toolCalls: 3,
    });
  });

  it('qwen: the result of its one-line array', async () => {
    expect(await extractUsage(transcriptPath('qwen'), { builtin: 'qwen' }, MAX)).toEqual({
      inputTokens: 19_744,
      outputTokens: 750,
      cachedInputTokens: 1_400,
      model: 'qwen3-coder-plus',
      turns: 15,
      toolCalls: 14,
    });
  });

  it('opencode: every step_finish summed, not the last one', async () => {
    expect(await extractUsage(transcriptPath('opencode'), { builtin: 'opencode' }, MAX)).toEqual({
      inputTokens: 19_744 - 1_400,
      outputTokens: 750,
      cachedInputTokens: 1_400,
      cacheWriteTokens: 0,
      turns: 15,
      toolCalls: 14,
    });
  });

  it('skips banners and warnings before, between and after the JSON', async () => {
    const banner = 'Warning: 256-color support not detected.\nYOLO mode is enabled. [info] {not json}\n';
    for (const name of ['claude-code', 'codex', 'gemini', 'qwen', 'opencode'] as const) {
      const text = await readFile(transcriptPath(name), 'utf8');
      const lines = text.split('\n');
      const middle = Math.floor(lines.length / 2);
      // A line of text in the middle of a JSONL stream; a pretty-printed document stays whole.
      const noisy =
        name === 'gemini' || name === 'qwen'
          ? text
          : [...lines.slice(0, middle), '[WARN] slow', ...lines.slice(middle)].join('\n');
      const file = await output(`${banner}${noisy}\nbye {\n`);
      expect(await extractUsage(file, { builtin: name }, MAX), name).toEqual(
        await extractUsage(transcriptPath(name), { builtin: name }, MAX),
      );
    }
  });

  it('reads a pretty-printed document (gemini -o json) only when it fits in maxBytes', async () => {
    const gemini = transcriptPath('gemini');
    const size = (await readFile(gemini)).length;
    expect(await extractUsage(gemini, { builtin: 'gemini' }, { maxBytes: size })).toMatchObject({ toolCalls: 14 });
    expect(await extractUsage(gemini, { builtin: 'gemini' }, { maxBytes: size - 1 })).toBeUndefined();
  });

  it('streams JSONL of any length: a file far over maxBytes still sums every line', async () => {
    const step = (i: number) =>
      JSON.stringify({
        type: 'step_finish',
        part: { tokens: { input: 1000 + i, output: 10, reasoning: 2, cache: { read: 1, write: 0 } }, cost: 0.001 },
      });
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++)
      lines.push(step(i), JSON.stringify({ type: 'tool_use', part: { callID: `c${i}` } }));
    const file = await output(`${lines.join('\n')}\n`);
    expect(await extractUsage(file, { builtin: 'opencode' }, { maxBytes: 4096 })).toEqual({
      inputTokens: 20_000 * 1000 + (19_999 * 20_000) / 2,
      outputTokens: 20_000 * 12,
      cachedInputTokens: 20_000,
      cacheWriteTokens: 0,
      costUsd: 20,
      costSource: 'agent',
      turns: 20_000,
      toolCalls: 20_000,
    });
  });

  it('skips a JSONL line longer than maxBytes and keeps the others', async () => {
    const huge = JSON.stringify({
      type: 'item.completed',
      item: { type: 'command_execution', aggregated_output: 'x'.repeat(10_000) },
    });
    const turn = JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 7, output_tokens: 3 } });
    const file = await output([turn, huge, turn].join('\n'));
    expect(await extractUsage(file, { builtin: 'codex' }, { maxBytes: 1000 })).toEqual({
      inputTokens: 14,
      outputTokens: 6,
      toolCalls: 0,
    });
  });

  it('reads what a Claude Code run that was killed before its result printed', async () => {
    const text = await readFile(transcriptPath('claude-code'), 'utf8');
    const cut = text.slice(0, text.indexOf('{"type":"result"'));
    expect(await extractUsage(await output(cut), { builtin: 'claude-code' }, MAX)).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      toolCalls: 14,
    });
  });

  it('reads Claude Code’s one-line json format: the requested model, no tool calls to count', async () => {
    const result = {
      type: 'result',
      num_turns: 3,
      total_cost_usd: 0.0123,
      usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 },
      modelUsage: { 'claude-opus-4-1': { inputTokens: 10 } },
    };
    expect(await extractUsage(await output(`${JSON.stringify(result)}\n`), { builtin: 'claude-code' }, MAX)).toEqual({
      inputTokens: 10,
      outputTokens: 20,
      cachedInputTokens: 5,
      cacheWriteTokens: 0,
      costUsd: 0.0123,
      costSource: 'agent',
      model: 'claude-opus-4-1',
      turns: 3,
    });
  });

  it('finds nothing in output that reports nothing', async () => {
    for (const name of ['claude-code', 'codex', 'gemini', 'qwen', 'opencode']) {
      expect(
        await extractUsage(await output('Not logged in · Please run /login\n'), { builtin: name }, MAX),
      ).toBeUndefined();
    }
  });
});
