/** Throws a RangeError unless `value` is a whole number of at least `min`. */
export function assertCount(name: string, value: number, min = 0): void {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number of at least ${min}, got ${value}`);
  }
}

/** How many trials a case had and how many of them passed. */
export interface CaseTally {
  trials: number;
  passes: number;
}

/** Throws a RangeError unless the tally has at least one trial and between 0 and `trials` passes. */
export function assertTally(tally: CaseTally, name = 'tally'): void {
  assertCount(`${name}.trials`, tally.trials, 1);
  assertCount(`${name}.passes`, tally.passes);
  if (tally.passes > tally.trials) {
    throw new RangeError(`${name}.passes (${tally.passes}) exceeds ${name}.trials (${tally.trials})`);
  }
}
