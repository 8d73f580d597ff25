import { describe, expect, it } from 'vitest';
import { seededRandom, seededUint32 } from './prng.js';

describe('seededUint32', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const first = seededUint32(42);
    const again = seededUint32(42);
    const other = seededUint32(43);
    const sequence = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => again())).toEqual(sequence);
    expect(Array.from({ length: 5 }, () => other())).not.toEqual(sequence);
    for (const value of sequence) expect(Number.isInteger(value) && value >= 0 && value < 2 ** 32).toBe(true);
  });

  it('is mulberry32', () => {
    // mulberry32(0): state 0x6d2b79f5; t = imul(t ^ t>>>15, t|1); t ^= t + imul(t ^ t>>>7, t|61); t ^ t>>>14.
    expect(seededUint32(0)()).toBe(1144304738);
  });
});

describe('seededRandom', () => {
  it('spreads evenly over [0, 1)', () => {
    const next = seededRandom(1);
    const draws = Array.from({ length: 10_000 }, () => next());
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    // A uniform mean is 1/2 with standard error √(1/12/10,000) = 0.0029.
    const mean = draws.reduce((total, value) => total + value, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.012);
  });
});
