import { describe, expect, it } from 'vitest';
import { locateCases } from './locate.js';

/** The location of `marker`, which must occur once in `source`: expected values computed independently. */
function at(source: string, marker: string): { line: number; column: number } {
  const offset = source.indexOf(marker);
  if (offset < 0 || source.indexOf(marker, offset + 1) >= 0) throw new Error(`marker ${marker} must occur once`);
  const before = source.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)?.length ?? 0 };
}

describe('locateCases', () => {
  it('finds each case and each check by its opening brace, and each case id by its value', () => {
    const source = [
      '{', //                                                     line 1
      '  "name": "demo",',
      '  "cases": [',
      '    {', //                                                 line 4, column 4
      '      "id": "a",',
      '      "prompt": "p",',
      '      "checks": [',
      '        { "kind": "fileExists", "path": "x" },', //        line 8, column 8
      '        {"kind": "command", "run": "true"}', //            line 9, column 8
      '      ]',
      '    },',
      '    { "id": "b", "prompt": "p", "checks": [] }', //        line 12, column 4
      '  ]',
      '}',
    ].join('\n');
    expect(locateCases(source)).toEqual([
      {
        line: 4,
        column: 4,
        id: { line: 5, column: 12 },
        checks: [
          { line: 8, column: 8 },
          { line: 9, column: 8 },
        ],
      },
      { line: 12, column: 4, id: { line: 12, column: 12 }, checks: [] },
    ]);
  });

  it('is not fooled by braces, brackets, quotes and escapes inside strings', () => {
    const source = String.raw`{"name": "{[\"cases\": [{]}", "description": "\\", "x": {"cases": [{}, {}]},
"cases": [{"prompt": "} ] { [ \" \\\" \u007b", "id": "é😀", "setup": ["echo '}'"], "checks": [{"kind": "outputMatches", "pattern": "\\{\\[\\]"}, {"kind": "fileExists", "path": "]"}]}]}`;
    expect(() => JSON.parse(source)).not.toThrow();
    expect(locateCases(source)).toEqual([
      {
        ...at(source, '{"prompt"'),
        id: at(source, '"é😀"'),
        checks: [at(source, '{"kind": "outputMatches"'), at(source, '{"kind": "fileExists"')],
      },
    ]);
  });

  it('skips nested arrays and objects of other keys', () => {
    const source =
      '{"meta": [[1, [2, {"cases": [3]}]], {"a": [[]]}], "cases": [{"x": [[{}]], "checks": [[], {"k": 1}]}]}';
    expect(locateCases(source)).toEqual([
      { ...at(source, '{"x"'), checks: [at(source, '[], {"k"'), at(source, '{"k"')] },
    ]);
  });

  it('counts CRLF and lone CR as line ends, and ignores a BOM', () => {
    const source = '\uFEFF{\r\n"cases": [\r\n  {"checks": [\r  {}]}\n]}';
    expect(locateCases(source)).toEqual([{ line: 3, column: 2, checks: [{ line: 4, column: 2 }] }]);
  });

  it('matches keys written with escapes, and lets the last duplicate key win as JSON.parse does', () => {
    const source = '{"cases": [{}], "\\u0063ases": [1, {"checks": 3}]}';
    expect(locateCases(source)).toEqual([
      { line: 1, column: 31, checks: [] },
      { line: 1, column: 34, checks: [] },
    ]);
  });

  it.each([
    ['an empty text', ''],
    ['an array', '[{"cases": []}]'],
    ['an object without cases', '{"name": "x"}'],
    ['cases that is not an array', '{"cases": {"a": {}}}'],
    ['malformed JSON', '{"cases": [{"id": "a",'],
    ['an unterminated string', '{"cases": [{"id": "a'],
  ])('returns [] for %s', (_title, source) => {
    expect(locateCases(source)).toEqual([]);
  });
});
