import { describe, expect, it } from 'vitest';
import { choseFlag, givenFlags } from './v8-flags.js';

describe('choseFlag', () => {
  it('finds a flag given on, with a value or off, in execArgv or NODE_OPTIONS, with dashes or underscores', () => {
    const given = givenFlags(['--max_semi_space_size=8', '--conditions=dev'], '--inspect  --no-expose-gc');
    expect(choseFlag(given, '--max-semi-space-size')).toBe(true);
    expect(choseFlag(given, '--expose-gc')).toBe(true);
    expect(choseFlag(given, '--optimize-for-size')).toBe(false);
    expect(choseFlag(givenFlags([], '--optimize-for-size'), '--optimize-for-size')).toBe(true);
    expect(choseFlag(givenFlags(['--max-semi-space-size', '4'], undefined), '--max-semi-space-size')).toBe(true);
    // A flag whose name merely starts with another's is not that one.
    expect(choseFlag(givenFlags(['--expose-gc-as=collect'], undefined), '--expose-gc')).toBe(false);
  });
});
