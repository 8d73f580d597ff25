import { describe, expect, it } from 'vitest';
import { median } from './median.js';

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([892, 1204, 203])).toBe(892); // sorted 203, 892, 1204
    expect(median([40, 10, 30, 20])).toBe(25); // sorted 10, 20, 30, 40 → (20 + 30)/2
    expect(median([7])).toBe(7);
  });

  it('is null for no values and leaves its input alone', () => {
    expect(median([])).toBeNull();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});
