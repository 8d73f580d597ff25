import { describe, expect, it } from 'vitest';
import { retainedHeapBytes } from '../process/test-support/heap.js';
import { describeError, tailText, truncateText } from './messages.js';

describe('truncateText', () => {
  it('keeps short text and cuts long text to the limit, ending in …', () => {
    expect(truncateText('hi', 80)).toBe('hi');
    expect(truncateText('x'.repeat(80), 80)).toBe('x'.repeat(80));
    expect(truncateText('x'.repeat(81), 80)).toBe(`${'x'.repeat(79)}…`);
  });

  it('never splits a surrogate pair', () => {
    expect(truncateText('😀'.repeat(5), 3)).toBe('😀😀…');
  });
});

describe('tailText', () => {
  it('keeps short text and the end of long text, starting with …', () => {
    expect(tailText('abc', 3)).toBe('abc');
    expect(tailText('abcdef', 4)).toBe('…def');
  });

  it('drops half a surrogate pair at the cut', () => {
    expect(tailText('a😀b', 3)).toBe('…b');
  });
});

describe('describeError', () => {
  it('uses the message of an Error and the string of anything else', () => {
    expect(describeError(new TypeError('bad'))).toBe('bad');
    expect(describeError('plain')).toBe('plain');
  });
});

describe('tailText and memory', () => {
  it('keeps nothing of the text it was cut from alive', () => {
    const retained = retainedHeapBytes(() =>
      Array.from({ length: 20 }, (_, index) => tailText(`${index}`.padEnd(2 * 1024 * 1024, 'x'), 2000)),
    );
    expect(retained).toBeLessThan(4 * 1024 * 1024);
  });
});
