import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax.js';

describe('findJsonSyntaxError', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e+3, 0, true, false, null, "x\\"y\\\\z\\u00e9\\n"]} ',
    '"just a string"',
    '{"nested": [[[{"a": {}}]]], "": ""}',
  ])('accepts %s', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  it.each([
    ['', 0, 'expected a value, found end of input'],
    ['{"a": 1,}', 8, 'expected a property name in double quotes, found "}"'],
    ['[1, 2,]', 6, 'expected a value, found "]"'],
    ['{"a" 1}', 5, 'expected ":", found "1"'],
    ['{"a": 1 "b": 2}', 8, 'expected "," or "}", found "\\""'],
    ['[1 2]', 3, 'expected "," or "]", found "2"'],
    ["{'a': 1}", 1, 'expected a property name in double quotes, found "\'"'],
    ["['a']", 1, 'strings must use double quotes'],
    ['{"a": "b', 6, 'unterminated string'],
    ['"a\tb"', 2, 'control character in string; write it as an escape such as \\n'],
    ['"\\x"', 1, 'invalid escape "\\x"'],
    ['"\\u12"', 1, 'invalid \\u escape; expected 4 hex digits'],
    ['01', 0, 'invalid number'],
    ['1.', 0, 'invalid number'],
    ['-', 0, 'invalid number'],
    ['tru', 0, 'expected a value, found "t"'],
    ['{} {}', 3, 'expected end of input, found "{"'],
    ['{"a": undefined}', 6, 'expected a value, found "u"'],
  ])('rejects %j at offset %i: %s', (text, offset, reason) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(findJsonSyntaxError(text)).toEqual({ offset, reason });
  });

  it('gives up instead of throwing on nesting deep enough to overflow the stack', () => {
    expect(findJsonSyntaxError('['.repeat(200_000))).toBeUndefined();
  });
});
