import type { BoundedMatchOutcome } from '../regex/bounded-match.js';
import { showRegex } from '../regex/show-regex.js';
import { formatSeconds } from './messages.js';
import type { CheckDefinition } from './types.js';

/** `outputMatches`: passes when `pattern` matches the agent command's combined stdout and stderr. */
export const outputMatchesCheck: CheckDefinition<'outputMatches'> = {
  kind: 'outputMatches',
  async evaluate(check, { output, matchRegex }) {
    const outcome = await matchRegex(check.pattern, check.flags, output);
    if (outcome.status === 'matched') return { passed: true };
    return { passed: false, message: failureMessage(outcome, showRegex(check.pattern, check.flags)) };
  },
};

function failureMessage(outcome: Exclude<BoundedMatchOutcome, { status: 'matched' }>, regex: string): string {
  switch (outcome.status) {
    case 'unmatched':
      return `output does not match ${regex}`;
    case 'timedOut':
      return `output did not finish matching ${regex} within ${formatSeconds(outcome.timeoutMs)} (the pattern backtracks too much); simplify the pattern`;
    case 'aborted':
      return `output matching ${regex} was interrupted`;
    case 'failed':
      return `output could not be matched against ${regex}: ${outcome.message}; simplify the pattern`;
  }
}
