import { describe, expect, it } from 'vitest';
import { extractUsage } from './extract-usage.js';
import { UsageRegexTimeoutError } from './regex-extract.js';
import { outputFiles } from './test-support/temp-output.js';

const output = outputFiles();
const MAX = { maxBytes: 1 << 20 };

describe('regex extractors', () => {
  const text =
    'step 1: tokens in=1,200 out=40 model=m-1\nstep 2: tokens in=1_300 out=12 model=m-2\nTotal cost: $0.0125\n';

  it('takes the last match, its named groups being usage fields', async () => {
    const regex = 'in=(?<inputTokens>[\\d,_]+) out=(?<outputTokens>\\d+) model=(?<model>\\S+)';
    expect(await extractUsage(await output(text), { regex }, MAX)).toEqual({
      inputTokens: 1300,
      outputTokens: 12,
      model: 'm-2',
    });
  });

  it('adds every match up with sum, the model being the last', async () => {
    const regex = 'in=(?<inputTokens>[\\d,_]+) out=(?<outputTokens>\\d+) model=(?<model>\\S+)';
    expect(await extractUsage(await output(text), { regex, sum: true }, MAX)).toEqual({
      inputTokens: 2500,
      outputTokens: 52,
      model: 'm-2',
    });
  });

  it('reads a cost as the agent’s estimate, with flags', async () => {
    expect(
      await extractUsage(await output(text), { regex: 'total COST: \\$(?<costUsd>[\\d.]+)', flags: 'i' }, MAX),
    ).toEqual({
      costUsd: 0.0125,
      costSource: 'agent',
    });
  });

  it('sums over windows of whole lines when the output is longer than maxBytes', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `tokens: ${i}`).join('\n');
    expect(
      await extractUsage(await output(lines), { regex: 'tokens: (?<inputTokens>\\d+)', sum: true }, { maxBytes: 1000 }),
    ).toEqual({
      inputTokens: (4999 * 5000) / 2,
    });
    expect(
      await extractUsage(await output(lines), { regex: 'tokens: (?<inputTokens>\\d+)' }, { maxBytes: 1000 }),
    ).toEqual({ inputTokens: 4999 });
  });

  it('stops a pattern that backtracks catastrophically on the agent’s output', async () => {
    const file = await output(`${'a'.repeat(40)}!`);
    const started = Date.now();
    await expect(
      extractUsage(file, { regex: '^(?<model>(a+)+)$' }, { maxBytes: 1 << 20, regexTimeoutMs: 100 }),
    ).rejects.toThrow(UsageRegexTimeoutError);
    // Generous: the point is that it ends, not how fast.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('finds nothing when nothing matches', async () => {
    expect(await extractUsage(await output('nothing here'), { regex: 'in=(?<inputTokens>\\d+)' }, MAX)).toBeUndefined();
  });
});

describe('json extractors', () => {
  it('reads paths into the last document, after banners, with indexes from the end and wildcards', async () => {
    const doc = [
      { type: 'system' },
      {
        type: 'result',
        usage: { input_tokens: 100, output_tokens: 7 },
        stats: { models: { a: { tokens: { input: 3 } }, 'b.c': { tokens: { input: 4 } } } },
      },
    ];
    const file = await output(`loading…\n${JSON.stringify(doc, null, 2)}\ndone\n`);
    expect(
      await extractUsage(
        file,
        {
          json: {
            inputTokens: '[-1].usage.input_tokens',
            outputTokens: '$[1].usage.output_tokens',
            cachedInputTokens: '[-1].stats.models.*.tokens.input',
            model: '[-1].type',
            turns: '[-1].stats.models["b.c"].tokens.input',
            toolCalls: '[-1].missing.path',
          },
        },
        MAX,
      ),
    ).toEqual({ inputTokens: 100, outputTokens: 7, cachedInputTokens: 7, model: 'result', turns: 4 });
  });

  it('finds nothing in output without JSON', async () => {
    expect(
      await extractUsage(await output('plain text'), { json: { inputTokens: 'usage.input' } }, MAX),
    ).toBeUndefined();
  });
});

describe('jsonl extractors', () => {
  const lines = [
    '{"type":"step","tokens":{"in":10,"out":1},"model":"m-a"}',
    'a warning line',
    '{"type":"step","tokens":{"in":20,"out":2},"model":"m-b"}',
    '{"type":"summary","cost":"0.5"}',
  ].join('\n');

  it('takes each field from the last line that has it', async () => {
    expect(
      await extractUsage(
        await output(lines),
        { jsonl: { inputTokens: 'tokens.in', model: 'model', costUsd: 'cost' } },
        MAX,
      ),
    ).toEqual({
      inputTokens: 20,
      costUsd: 0.5,
      costSource: 'agent',
      model: 'm-b',
    });
  });

  it('adds every line up with sum', async () => {
    expect(
      await extractUsage(
        await output(lines),
        { jsonl: { inputTokens: 'tokens.in', outputTokens: 'tokens.out', model: 'model' }, sum: true },
        MAX,
      ),
    ).toEqual({ inputTokens: 30, outputTokens: 3, model: 'm-b' });
  });
});
