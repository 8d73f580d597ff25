import type { BoundedMatchOutcome } from '../../regex/bounded-match.js';
import type { CheckContext } from '../types.js';

/**
 * A `matchRegex` for unit tests of checks: it tests on the calling thread, without a worker, so memfs
 * tests stay fast and single-threaded. Only for the short, tame patterns those tests use; the bounded
 * matcher has tests of its own.
 */
export const matchInline: CheckContext['matchRegex'] = async (pattern, flags, text) => {
  try {
    return { status: new RegExp(pattern, flags).test(text) ? 'matched' : 'unmatched' };
  } catch (error) {
    return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
};

/** A `matchRegex` that answers every request with `outcome`, for the outcomes a tame pattern never has. */
export function matchAnswering(outcome: BoundedMatchOutcome): CheckContext['matchRegex'] {
  return async () => outcome;
}

/** A `matchRegex` for contexts whose checks test no regular expressions: a call is a test failure. */
export const noRegexMatching: CheckContext['matchRegex'] = () =>
  Promise.reject(new Error('these checks test no regular expressions'));
