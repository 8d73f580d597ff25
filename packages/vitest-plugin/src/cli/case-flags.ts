import type { LoadedSuite } from '@gz-bench/core';
import { caseMatcher, unmatchedPatterns } from '../node/case-filter.js';
import { UsageError } from './usage-error.js';

/**
 * The suites with only the cases `--case` selects (exact ids or globs), or all of them without the
 * flag. A `--case` that selects no case of the suites named is a usage error, before anything runs.
 */
export function selectCases(suites: readonly LoadedSuite[], patterns: readonly string[] | undefined): LoadedSuite[] {
  const matches = caseMatcher(patterns);
  if (patterns === undefined || matches === undefined) return [...suites];
  const unmatched = unmatchedPatterns(
    patterns,
    suites.map(({ suite }) => suite),
  );
  if (unmatched.length > 0) {
    throw new UsageError(
      `--case ${unmatched.map((id) => JSON.stringify(id)).join(', ')}: no case of the suites named has that id`,
    );
  }
  return suites.map((loaded) => ({
    ...loaded,
    suite: { ...loaded.suite, cases: loaded.suite.cases.filter((testCase) => matches(testCase.id)) },
  }));
}
