import type { CaseLocation, Suite } from '@gz-bench/core';
import picomatch from 'picomatch';

// `-t` is Vitest's regular expression over the full test name: `-t fix-bug` runs `fix-bug-2` too, and
// an id such as `(paren` is no valid pattern. `--case` and `GZ_BENCH_CASES` name cases exactly: an id
// as it is written, or a glob (`fix-*`) for several.

/** Whether a case id is among those a run selects. */
export type CaseMatcher = (id: string) => boolean;

/**
 * The matcher of `patterns` (exact ids, or globs), or undefined when there are none: every case
 * runs. An id that is itself written like a glob (`(paren`, `a*b`) matches itself.
 */
export function caseMatcher(patterns: readonly string[] | undefined): CaseMatcher | undefined {
  if (patterns === undefined || patterns.length === 0) return undefined;
  const exact = new Set(patterns);
  const globs = patterns.flatMap((pattern) => {
    try {
      return [picomatch(pattern, { dot: true })];
    } catch {
      // Not a glob picomatch can read: it can only be meant as the id it is.
      return [];
    }
  });
  return (id) => exact.has(id) || globs.some((glob) => glob(id));
}

/** The patterns that select no case of `suites`, in the order given. */
export function unmatchedPatterns(patterns: readonly string[], suites: readonly Suite[]): string[] {
  const ids = suites.flatMap((suite) => suite.cases.map((testCase) => testCase.id));
  return patterns.filter((pattern) => {
    const matches = caseMatcher([pattern]);
    return matches !== undefined && !ids.some(matches);
  });
}

/** The suite with only the cases `matches` selects, and their locations beside them. */
export function narrowCases(
  suite: Suite,
  locations: CaseLocation[],
  matches: CaseMatcher | undefined,
): { suite: Suite; locations: CaseLocation[] } {
  if (matches === undefined) return { suite, locations };
  const kept = suite.cases.flatMap((testCase, index) => (matches(testCase.id) ? [index] : []));
  return {
    suite: { ...suite, cases: kept.map((index) => suite.cases[index] as Suite['cases'][number]) },
    // One location per case, as locateCases gives them: kept in step with the cases.
    locations: kept.map((index) => locations[index] as CaseLocation),
  };
}
