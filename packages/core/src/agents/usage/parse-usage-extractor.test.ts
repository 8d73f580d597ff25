import { describe, expect, it } from 'vitest';
import { parseUsageExtractor } from './parse-usage-extractor.js';

describe('parseUsageExtractor', () => {
  it('accepts each declared form and the built-ins', () => {
    expect(parseUsageExtractor({ builtin: 'codex' })).toEqual({ builtin: 'codex' });
    expect(parseUsageExtractor({ regex: 'in=(?<inputTokens>\\d+)', flags: 'i', sum: true })).toEqual({
      regex: 'in=(?<inputTokens>\\d+)',
      flags: 'i',
      sum: true,
    });
    expect(parseUsageExtractor({ json: { inputTokens: 'usage.input_tokens', model: 'stats.models.*' } })).toEqual({
      json: { inputTokens: 'usage.input_tokens', model: 'stats.models.*' },
    });
    expect(parseUsageExtractor({ jsonl: { toolCalls: 'part.calls' }, sum: false })).toEqual({
      jsonl: { toolCalls: 'part.calls' },
      sum: false,
    });
  });

  it.each([
    [null, 'usage: expected an object such as'],
    [{}, 'usage: give exactly one of builtin, regex, json or jsonl (found none)'],
    [{ regex: 'a', json: {} }, 'usage: give exactly one of builtin, regex, json or jsonl (found regex and json)'],
    [
      { builtin: 'claude' },
      'usage.builtin: unknown extractor "claude" (did you mean claude-code?); built-ins are claude-code, codex, gemini, qwen, opencode',
    ],
    [{ regex: '(' }, 'usage.regex: invalid regular expression /(/: '],
    [{ regex: 'in=(\\d+)' }, 'usage.regex: name a group after each figure, e.g. /input: (?<inputTokens>\\d+)/'],
    [
      { regex: 'in=(?<tokens>\\d+)' },
      'usage.regex: group "tokens" is not a usage field; usage fields are inputTokens, outputTokens',
    ],
    [
      { regex: 'in=(?<inputToken>\\d+)' },
      'usage.regex: group "inputToken" is not a usage field (did you mean inputTokens?)',
    ],
    [
      { regex: 'a(?<model>b)', flags: 'gx' },
      'usage.flags: expected flags among d, i, m, s, u, v (g is implied), got "gx"',
    ],
    [{ regex: 'a(?<model>b)', sum: 'yes' }, 'usage.sum: expected true or false'],
    [
      { regex: 'a(?<model>b)', paths: {} },
      'usage.paths: unknown key for a regex extractor (it takes regex, flags, sum)',
    ],
    [{ json: {} }, 'usage.json: expected an object of usage fields and paths'],
    [{ json: { inputToken: 'usage.input' } }, 'usage.json.inputToken: unknown usage field (did you mean inputTokens?)'],
    [{ json: { inputTokens: 3 } }, 'usage.json.inputTokens: expected a path such as "usage.input_tokens"'],
    [
      { json: { inputTokens: 'usage..input' } },
      'usage.json.inputTokens: expected a key at ".input" in the path "usage..input"',
    ],
    [{ jsonl: { turns: 'a[x]' } }, 'usage.jsonl.turns: [x] in the path "a[x]" is not an index, "*" or a quoted key'],
    [{ json: { turns: 'a' }, sum: true }, 'usage.sum: unknown key for a json extractor (it takes json)'],
  ])('refuses %j with a message that says what to fix', (value, message) => {
    expect(() => parseUsageExtractor(value)).toThrow(message);
  });

  it('names where the extractor sits', () => {
    expect(() => parseUsageExtractor({ builtin: 'x' }, 'agents.mine.usage')).toThrow(
      /^agents\.mine\.usage\.builtin: unknown extractor "x"; built-ins/,
    );
  });
});
