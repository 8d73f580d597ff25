/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every
 * machine, so Monte Carlo p-values and seeded fakes are reproducible. Returns uniform 32-bit unsigned
 * integers; not for cryptography.
 */
export function seededUint32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A seeded generator of uniform numbers in [0, 1), built on `seededUint32`. */
export function seededRandom(seed: number): () => number {
  const next = seededUint32(seed);
  return () => next() / 2 ** 32;
}
