import { describe, expect, it } from 'vitest';
import { forEachJsonLine } from './read-output.js';
import { outputFiles } from './test-support/temp-output.js';

const output = outputFiles();

async function records(text: string, maxBytes = 1 << 20): Promise<unknown[]> {
  const found: unknown[] = [];
  await forEachJsonLine(await output(text), maxBytes, (record) => found.push(record));
  return found;
}

describe('forEachJsonLine', () => {
  it('reads JSON lines and pretty-printed documents among them, in order, skipping text', async () => {
    const pretty = JSON.stringify({ stats: { models: { m: { tokens: { input: 1 } } } }, list: [1, {}] }, null, 2);
    const text = `banner {\n{"a":1}\n${pretty}\nwarning\n{"b":2}\n  [\n    3\n  ]\n`;
    expect(await records(text)).toEqual([
      { a: 1 },
      { stats: { models: { m: { tokens: { input: 1 } } } }, list: [1, {}] },
      { b: 2 },
      [3],
    ]);
  });

  it('reads a document with CRLF line ends and without a newline at its end', async () => {
    expect(await records('{\r\n  "a": 1\r\n}')).toEqual([{ a: 1 }]);
  });

  it('takes a lone "{" followed by a line at its indent for text: the JSON lines after it still count', async () => {
    expect(await records('{\n{"a":1}\n{"b":2}\n')).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('drops a document longer than maxBytes, or one that never closes, and reads the lines after the first', async () => {
    const pretty = JSON.stringify({ long: 'x'.repeat(200) }, null, 2);
    expect(await records(`${pretty}\n{"after":1}\n`, 100)).toEqual([{ after: 1 }]);
    expect(await records(`${pretty}\n{"after":1}\n`, pretty.length)).toEqual([{ long: 'x'.repeat(200) }, { after: 1 }]);
    expect(await records(`${pretty}\n`, pretty.length - 1)).toEqual([]);
    expect(await records('{"before":1}\n{\n  "cut": "by a kill')).toEqual([{ before: 1 }]);
  });

  it('skips a document that does not parse', async () => {
    expect(await records('{\n  not json\n}\n{"a":1}\n')).toEqual([{ a: 1 }]);
  });
});
