import { describe, expect, it } from 'vitest';
import { ownHeapFlag } from './own-heap.js';

describe('ownHeapFlag', () => {
  it('sizes the heap for memory unless the user chose either way, in execArgv or NODE_OPTIONS', () => {
    expect(ownHeapFlag([], undefined)).toBe('--optimize-for-size');
    expect(ownHeapFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe('--optimize-for-size');
    for (const chosen of ['--optimize-for-size', '--no-optimize-for-size', '--optimize_for_size']) {
      expect(ownHeapFlag([chosen], undefined)).toBeUndefined();
      expect(ownHeapFlag([], `--inspect ${chosen}`)).toBeUndefined();
    }
  });
});
