import { describe, expect, it } from 'vitest';
import { valueTextAt } from './value-text.js';

describe('valueTextAt', () => {
  const source = [
    '\uFEFF{',
    '  "name": "s",',
    '  "cases": [',
    '    { "id": "a", "timeoutSec": 5, "checks": [] },',
    '    { "id": "b", "timeoutSec": 1e400, "checks": [{ "kind": "command", "run": "x", "expectExit": -1E+400 }] }',
    '  ],',
    '  "maxDiskMB": 1e-400',
    '}',
  ].join('\n');

  it('returns a value as written, however JSON.parse reads it', () => {
    expect(valueTextAt(source, ['cases', 1, 'timeoutSec'])).toBe('1e400');
    expect(valueTextAt(source, ['cases', 1, 'checks', 0, 'expectExit'])).toBe('-1E+400');
    expect(valueTextAt(source, ['maxDiskMB'])).toBe('1e-400');
    expect(valueTextAt(source, ['cases', 0, 'timeoutSec'])).toBe('5');
  });

  it('returns strings, objects and arrays whole', () => {
    expect(valueTextAt(source, ['name'])).toBe('"s"');
    expect(valueTextAt(source, ['cases', 1, 'checks', 0])).toBe(
      '{ "kind": "command", "run": "x", "expectExit": -1E+400 }',
    );
    expect(valueTextAt(source, ['cases', 0, 'checks'])).toBe('[]');
  });

  it('takes the last of duplicate keys, as JSON.parse does', () => {
    expect(valueTextAt('{"a": 1, "a": 1e999}', ['a'])).toBe('1e999');
  });

  it('returns undefined for paths that lead nowhere and for text it cannot walk', () => {
    expect(valueTextAt(source, ['cases', 2])).toBeUndefined();
    expect(valueTextAt(source, ['missing'])).toBeUndefined();
    expect(valueTextAt(source, ['name', 0])).toBeUndefined();
    expect(valueTextAt(source, ['cases', 'id'])).toBeUndefined();
    expect(valueTextAt('{"a": ', ['a'])).toBeUndefined();
  });
});
