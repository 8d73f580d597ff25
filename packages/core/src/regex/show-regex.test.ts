import { describe, expect, it } from 'vitest';
import { showRegex } from './show-regex.js';

describe('showRegex', () => {
  it('shows a pattern and its flags between slashes', () => {
    expect(showRegex('^(a+)+$')).toBe('/^(a+)+$/');
    expect(showRegex('\\bdone\\b', 'im')).toBe('/\\bdone\\b/im');
  });

  it('keeps a pattern with line breaks and other control characters on one line', () => {
    expect(showRegex('PASS\nFAIL\r\t\0\u001b\u2028')).toBe('/PASS\\nFAIL\\r\\t\\u0000\\u001b\\u2028/');
    expect(showRegex('x', 'g\0')).toBe('/x/g\\u0000');
  });

  it('leaves other characters as they are', () => {
    expect(showRegex('héllo …/ \\/ 😀')).toBe('/héllo …/ \\/ 😀/');
  });
});
