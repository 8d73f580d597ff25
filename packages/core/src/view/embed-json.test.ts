import { describe, it } from 'vitest';
import { embedJson } from './embed-json.js';

describe('embedJson', () => {
  const hostile = [
    '</script><script>alert(1)</script>',
    '<!-- x',
    '"><img src=x onerror=alert(1)>',
    'a\u2028b\u2029c',
    '&amp;',
  ];

  it('leaves no <, > or & and no line or paragraph separator in the text', ({ expect }) => {
    const text = embedJson({ hostile });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
  });

  it('parses back to the same value', ({ expect }) => {
    const value = { hostile, nested: [{ n: 1, s: 'é 日本 🎉' }] };
    expect(JSON.parse(embedJson(value))).toEqual(value);
  });

  it('writes lone surrogates as escapes, so the page stays well-formed', ({ expect }) => {
    const text = embedJson(['\ud800', '\udc00x']);
    expect(text).toBe('["\\ud800","\\udc00x"]');
    expect(text).not.toMatch(/[\uD800-\uDFFF]/);
  });

  it('embeds undefined as null', ({ expect }) => {
    expect(embedJson(undefined)).toBe('null');
  });
});
