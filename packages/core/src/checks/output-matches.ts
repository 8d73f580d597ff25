import type { CheckDefinition } from './types.js';

/** `outputMatches`: passes when `pattern` matches the agent command's combined stdout and stderr. */
export const outputMatchesCheck: CheckDefinition<'outputMatches'> = {
  kind: 'outputMatches',
  async evaluate(check, { output }) {
    // A fresh RegExp per evaluation, so a `g` or `y` flag cannot carry `lastIndex` between checks.
    const matcher = new RegExp(check.pattern, check.flags);
    if (matcher.test(output)) return { passed: true };
    return { passed: false, message: `output does not match /${check.pattern}/${check.flags ?? ''}` };
  },
};
