import { createContext, runInContext } from 'node:vm';
import type { Usage } from '../../report/model.js';
import { setField } from './declared.js';
import { isUsageField } from './usage-fields.js';

/** How long one regular expression may run over an agent's output before extraction gives up on it. */
export const REGEX_TIMEOUT_MS = 5000;

/** Raised when a user's regular expression ran out of its time on an agent's output. */
export class UsageRegexTimeoutError extends Error {
  override name = 'UsageRegexTimeoutError';
}

/**
 * Applies a user's `regex` extractor to a text: every match's named groups are usage fields; the
 * last match counts, or, with `sum`, the figures of every match are added up (`model` is then the
 * last match's). The match runs in a separate V8 context with a time limit, because the agent writes
 * the text: a pattern that backtracks catastrophically on it is stopped, never the run.
 */
export function regexUsage(
  text: string,
  source: string,
  flags: string,
  sum: boolean,
  timeoutMs = REGEX_TIMEOUT_MS,
): Usage {
  const context = createContext({ text, source, flags: `${flags.replace(/[gy]/g, '')}g` });
  let matches: Array<Array<[string, string]>>;
  try {
    // Only strings leave the context: groups as [name, value] pairs.
    matches = runInContext(
      `Array.from(text.matchAll(new RegExp(source, flags)), (m) =>
        Object.entries(m.groups ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [String(k), String(v)]))`,
      context,
      { timeout: timeoutMs },
    ) as Array<Array<[string, string]>>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new UsageRegexTimeoutError(
        `the usage pattern /${source}/ did not finish within ${timeoutMs / 1000}s on the agent's output (it backtracks too much); simplify it`,
      );
    }
    throw error;
  }
  const usage: Usage = {};
  const picked = sum ? matches : matches.slice(-1);
  for (const groups of picked) {
    for (const [name, value] of groups) {
      // Validation allows groups named after usage fields only; any other is skipped all the same.
      if (isUsageField(name)) setField(usage, name, [value], !sum);
    }
  }
  return usage;
}
