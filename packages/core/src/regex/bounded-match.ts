import type { RegexMatcher } from './match-types.js';
import { QUICK_MATCH_MS, quickMatch } from './quick-match.js';
import { matchOnThread } from './thread-match.js';

export type { BoundedMatchOutcome, BoundedMatchRequest, RegexMatcher } from './match-types.js';

/**
 * Tests `pattern` against `text`, stopped when `timeoutMs` passes or the signal aborts. The match
 * runs on this thread first, for a few milliseconds at most (quick-match.ts); one that needs longer
 * starts again on a matching thread (thread-match.ts), with the whole bound, where it blocks nothing
 * of this process. So a process whose patterns are quick never starts a thread: starting one takes
 * tens of milliseconds of CPU and several megabytes.
 */
export const matchRegexBounded: RegexMatcher = async (request) => {
  if (request.signal?.aborted) return { status: 'aborted' };
  // vm takes a whole number of milliseconds, at least 1.
  const budgetMs = Math.max(1, Math.min(QUICK_MATCH_MS, Math.floor(request.timeoutMs)));
  const quick = quickMatch(request.pattern, request.flags, request.text, budgetMs);
  if (quick !== undefined) return quick;
  if (request.timeoutMs <= budgetMs) return { status: 'timedOut', timeoutMs: request.timeoutMs };
  return matchOnThread(request);
};
