/** One regular expression to test against a text, and how long it may take. */
export interface BoundedMatchRequest {
  /** JavaScript regular expression source. */
  pattern: string;
  flags?: string | undefined;
  text: string;
  /** How long the match may run before it is stopped. */
  timeoutMs: number;
  /** Stops the match at once when aborted. */
  signal?: AbortSignal | undefined;
}

/** How testing a regular expression ended. Outcomes are data: this never throws for a user's pattern. */
export type BoundedMatchOutcome =
  | { status: 'matched' }
  | { status: 'unmatched' }
  /** Still matching after `timeoutMs`: the pattern backtracks catastrophically on this text. */
  | { status: 'timedOut'; timeoutMs: number }
  /** The request's signal aborted first. */
  | { status: 'aborted' }
  /** The pattern did not compile, or the engine gave up (e.g. `Maximum call stack size exceeded`). */
  | { status: 'failed'; message: string };

/** Tests a regular expression against a text; a test injects one that runs without threads. */
export type RegexMatcher = (request: BoundedMatchRequest) => Promise<BoundedMatchOutcome>;
