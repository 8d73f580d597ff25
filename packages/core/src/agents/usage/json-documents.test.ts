import { describe, expect, it } from 'vitest';
import { jsonDocuments } from './json-documents.js';

describe('jsonDocuments', () => {
  it('finds pretty-printed and one-line documents among lines of text', () => {
    const text =
      'Loaded cached credentials.\n{\n  "a": "}{[",\n  "b": [1, 2]\n}\n[WARN] slow {x}\nlast: [1]\n  [{"c": "\\"]"}]\n';
    expect(jsonDocuments(text)).toEqual([{ a: '}{[', b: [1, 2] }, [{ c: '"]' }]]);
  });

  it('skips a document cut off by a killed agent', () => {
    expect(jsonDocuments('{"done": 1}\n{"stats": {"models": ')).toEqual([{ done: 1 }]);
  });

  it('gives up after many lines that look like JSON and are not, rather than rescanning forever', () => {
    const text = `${'{\n'.repeat(5000)}{"late": true}\n`;
    expect(jsonDocuments(text)).toEqual([]);
    expect(jsonDocuments(`{"early": true}\n${'{\n'.repeat(5000)}`)).toEqual([{ early: true }]);
  });
});
