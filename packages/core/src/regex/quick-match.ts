import { createContext, Script } from 'node:vm';
import type { BoundedMatchOutcome } from './match-types.js';

/**
 * How long a match may run on the calling thread before it goes to a matching thread. Patterns
 * that backtrack badly are rare in checks; most take microseconds on a command's output, and a
 * linear one scans megabytes within this.
 */
export const QUICK_MATCH_MS = 10;

// A context of its own, so that a user's pattern runs against builtins nobody else holds: the legacy
// RegExp statics (RegExp.lastMatch, RegExp.input) it sets are the context's, and are reset below.
let context: Record<string, unknown> | undefined;
let script: Script | undefined;

/**
 * Tests `pattern` against `text` on this thread for at most `budgetMs`: V8 stops a script at its
 * vm timeout even in the middle of a backtracking match, as it stops a loop. Undefined when the
 * match needed longer; the caller then runs it where it may take as long as its bound without
 * blocking this thread's event loop (thread-match.ts).
 */
export function quickMatch(
  pattern: string,
  flags: string | undefined,
  text: string,
  budgetMs = QUICK_MATCH_MS,
): BoundedMatchOutcome | undefined {
  context ??= createContext({});
  // A fresh RegExp per request, so a g or y flag cannot carry lastIndex from one match to the next;
  // then an empty match, so the statics hold no part of the output after it.
  script ??= new Script(
    "(() => { const matched = new RegExp(pattern, flags).test(text); /(?:)/.test(''); return matched; })()",
  );
  context.pattern = pattern;
  context.flags = flags;
  context.text = text;
  try {
    return { status: script.runInContext(context, { timeout: budgetMs }) === true ? 'matched' : 'unmatched' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    // Thrown in the context's realm: an Error of another realm is no `instanceof Error` here.
    const message = (error as { message?: unknown } | null)?.message;
    return { status: 'failed', message: typeof message === 'string' ? message : String(error) };
  } finally {
    context.text = undefined;
  }
}
