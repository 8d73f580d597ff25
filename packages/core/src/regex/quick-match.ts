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
  if (cannotBacktrack(pattern)) return directMatch(pattern, flags, text);
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

/**
 * Whether `pattern` has one way at most to match from each position of a text: no quantifier,
 * alternation or backreference, only atoms, classes, groups and assertions in sequence. Its match
 * then takes time linear in the text and needs no timeout, whose watchdog thread costs about a
 * millisecond per match: most output checks (`\bdone\b`, `All tests passed`) are such patterns.
 * Conservative: a `*`, `?` or `{` anywhere but escaped, in a class or a `(?:` group too, sends a
 * pattern the bounded way.
 */
export function cannotBacktrack(pattern: string): boolean {
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '*' || char === '+' || char === '?' || char === '{' || char === '|') return false;
    if (char === '\\') {
      const next = pattern[index + 1];
      // \1 to \9 and \k<name> refer back to a group: matching them can backtrack.
      if (next === undefined || next === 'k' || (next >= '1' && next <= '9')) return false;
      index += 1;
    }
  }
  return true;
}

/** The match of a pattern that cannot backtrack, on this thread; the RegExp statics are cleared after it. */
function directMatch(pattern: string, flags: string | undefined, text: string): BoundedMatchOutcome {
  try {
    const matched = new RegExp(pattern, flags).test(text);
    return { status: matched ? 'matched' : 'unmatched' };
  } catch (error) {
    return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    /(?:)/.test('');
  }
}
