import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCommandStartWork } from './command-start.js';
import { CASES_PER_COLLECTION, caseEnded, OUTPUT_BYTES_PER_COLLECTION, outputConsumed } from './garbage.js';

describe('collections the harness asks for', () => {
  const global = globalThis as { gc?: unknown };
  const exposed = global.gc;
  afterEach(() => {
    global.gc = exposed;
  });

  it('asks for a young-generation collection once per OUTPUT_BYTES_PER_COLLECTION bytes of output', () => {
    const gc = vi.fn();
    global.gc = gc;
    // Whatever an earlier test left counted is collected first.
    outputConsumed(OUTPUT_BYTES_PER_COLLECTION);
    gc.mockClear();
    const chunk = 64 * 1024;
    for (let read = 0; read < 3 * OUTPUT_BYTES_PER_COLLECTION; read += chunk) outputConsumed(chunk);
    expect(gc).toHaveBeenCalledTimes(3);
    expect(gc).toHaveBeenCalledWith({ type: 'minor' });
    outputConsumed(OUTPUT_BYTES_PER_COLLECTION - 1);
    expect(gc).toHaveBeenCalledTimes(3);
  });

  it('collects the old generation once per CASES_PER_COLLECTION cases, as the next command starts', () => {
    const gc = vi.fn();
    global.gc = gc;
    // Whatever an earlier test left counted or due is collected first.
    for (let ended = 0; ended < CASES_PER_COLLECTION; ended += 1) caseEnded();
    runCommandStartWork();
    gc.mockClear();
    for (let ended = 0; ended < CASES_PER_COLLECTION - 1; ended += 1) caseEnded();
    runCommandStartWork();
    expect(gc).not.toHaveBeenCalled();
    caseEnded();
    // Due, but not while a case is ending: the next case's first command has not started yet.
    expect(gc).not.toHaveBeenCalled();
    runCommandStartWork();
    expect(gc).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'async' });
    // One collection however many commands start after it, until CASES_PER_COLLECTION more cases end.
    runCommandStartWork();
    runCommandStartWork();
    expect(gc).toHaveBeenCalledTimes(1);
    for (let ended = 0; ended < 2 * CASES_PER_COLLECTION; ended += 1) caseEnded();
    runCommandStartWork();
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('does nothing where gc is not exposed', () => {
    global.gc = undefined;
    expect(() => outputConsumed(4 * OUTPUT_BYTES_PER_COLLECTION)).not.toThrow();
    expect(() => {
      for (let ended = 0; ended < 2 * CASES_PER_COLLECTION; ended += 1) caseEnded();
      runCommandStartWork();
    }).not.toThrow();
  });
});
