import { describe, expect, it } from 'vitest';
import { droppedMarker, OutputBuffer, outputTail } from './output-buffer.js';
import { retainedHeapBytes } from './test-support/heap.js';

const MiB = 1024 * 1024;

function collect(limit: number, ...chunks: string[]) {
  const buffer = new OutputBuffer(limit);
  for (const chunk of chunks) buffer.append(Buffer.from(chunk));
  return buffer.snapshot();
}

describe('OutputBuffer', () => {
  it('keeps everything below the limit', () => {
    expect(collect(8, 'abc', 'de')).toEqual({ text: 'abcde', totalBytes: 5, droppedBytes: 0 });
  });

  it('keeps everything up to twice the limit, with no marker', () => {
    expect(collect(4, 'abcdef', 'gh')).toEqual({ text: 'abcdefgh', totalBytes: 8, droppedBytes: 0 });
  });

  it('keeps head and tail and marks the gap beyond twice the limit', () => {
    expect(collect(4, 'abcdefghij')).toEqual({
      text: `abcd${droppedMarker(2)}ghij`,
      totalBytes: 10,
      droppedBytes: 2,
    });
  });

  it('keeps the newest bytes when many small chunks wrap the ring', () => {
    const chunks = Array.from({ length: 100 }, (_, index) => String(index % 10));
    expect(collect(3, ...chunks)).toEqual({ text: `012${droppedMarker(94)}789`, totalBytes: 100, droppedBytes: 94 });
  });

  it('keeps the last bytes of a chunk larger than the ring', () => {
    expect(collect(3, 'ab', 'cdefghijkl', 'm')).toEqual({
      text: `abc${droppedMarker(7)}klm`,
      totalBytes: 13,
      droppedBytes: 7,
    });
  });

  it('decodes a multi-byte character that straddles head and tail when nothing was dropped', () => {
    // "é" is 0xc3 0xa9: its first byte ends the head, its second starts the tail.
    expect(collect(2, 'aé', 'b').text).toBe('aéb');
  });

  it('turns characters cut by the gap into U+FFFD, never throwing', () => {
    const text = collect(2, 'aé', 'xxxxx', 'éb').text;
    expect(text).toBe(`a\uFFFD${droppedMarker(7)}\uFFFDb`);
  });

  it('keeps a leading byte-order mark', () => {
    expect(collect(8, '\uFEFFhi').text).toBe('\uFEFFhi');
  });

  it('does not retain or alias the appended chunks', () => {
    const buffer = new OutputBuffer(4);
    const chunk = Buffer.from('abcd');
    buffer.append(chunk);
    chunk.fill(0x7a);
    expect(buffer.snapshot().text).toBe('abcd');
  });

  it('grows its head with the output instead of allocating the whole limit up front', () => {
    const small = retainedHeapBytes(() => Array.from({ length: 50 }, () => new OutputBuffer(MiB)));
    expect(small).toBeLessThan(50 * 64 * 1024);
    const buffer = new OutputBuffer(64);
    for (let index = 0; index < 200; index += 1) buffer.append(Buffer.from([65 + (index % 26)]));
    const letters = Array.from({ length: 200 }, (_, index) => String.fromCharCode(65 + (index % 26))).join('');
    expect(buffer.snapshot()).toEqual({
      text: `${letters.slice(0, 64)}${droppedMarker(72)}${letters.slice(136)}`,
      totalBytes: 200,
      droppedBytes: 72,
    });
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new OutputBuffer(0)).toThrow(RangeError);
    expect(() => new OutputBuffer(1.5)).toThrow(RangeError);
  });
});

describe('outputTail', () => {
  it('returns short text unchanged', () => {
    expect(outputTail('hello', 10)).toBe('hello');
  });

  it('returns the last characters of long text', () => {
    expect(outputTail('0123456789', 3)).toBe('789');
    expect(outputTail('x'.repeat(5000))).toHaveLength(4000);
  });

  it('does not start with half a surrogate pair', () => {
    expect(outputTail('a😀b', 2)).toBe('b');
  });

  it('keeps nothing of the text it was cut from alive', () => {
    // Twenty 2 MiB outputs (4 MiB of heap each): a tail that were a view into its output would keep 80 MiB.
    const retained = retainedHeapBytes(() =>
      Array.from({ length: 20 }, (_, index) => outputTail(`${index}`.padEnd(2 * MiB, 'x'))),
    );
    expect(retained).toBeLessThan(4 * MiB);
  });
});
