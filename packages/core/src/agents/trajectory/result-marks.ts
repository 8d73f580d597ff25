import type { AtifStep } from './types.js';

/**
 * What gz-bench marked on a step's result at `index` (`is_error`, `truncated`, `exit_code`, …), kept in
 * the step's `extra.results` since ATIF's result has no `extra`; undefined when it has no marks.
 */
export function resultMarks(step: AtifStep, index: number): Record<string, unknown> | undefined {
  const marks = step.extra?.results;
  if (!Array.isArray(marks)) return undefined;
  const entry = marks.find((mark) => (mark as { index?: unknown } | null)?.index === index) as
    | Record<string, unknown>
    | undefined;
  if (entry === undefined) return undefined;
  const { index: _index, source_call_id: _call, ...own } = entry;
  return own;
}
