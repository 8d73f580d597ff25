// The plain types of generated task families, apart from the zod schema, so that a worker running a
// family case reads them without loading it (see run.ts).

/** The kinds of generated task families. */
export const FAMILY_KINDS = ['pointerChase', 'faultRecovery', 'parallelLookup'] as const;

/** One kind of generated task family. */
export type FamilyKind = (typeof FAMILY_KINDS)[number];

/** The smallest and largest size a family may ask for. */
export const MIN_FAMILY_SIZE = 1;
export const MAX_FAMILY_SIZE = 1000;

/** One size of one family: what a generated case carries to the runner, which regenerates its task. */
export interface FamilyInstance {
  /** The family's `id` in the suite. */
  id: string;
  kind: FamilyKind;
  seed: number;
  size: number;
  /** parallelLookup only: the fewest lookups that must have been in flight at once to pass. */
  minConcurrency?: number;
}

/** How one tool call ended, as the server replied. */
export type ReplyKind = 'ok' | 'fault' | 'error';

/** What a tool exits with for each kind of reply: 75 (EX_TEMPFAIL) says call again. */
export const EXIT_CODES: Record<ReplyKind, number> = { ok: 0, error: 1, fault: 75 };

/** One tool call as the harness's tool server saw it. Times are ms since the server started. */
export interface ToolCall {
  tool: string;
  arg: string;
  startMs: number;
  endMs: number;
  reply: ReplyKind;
}

/** What a family case did with its tool, in the report row (`family`). */
export interface FamilyReport {
  id: string;
  kind: FamilyKind;
  seed: number;
  size: number;
  /** Every call the tool server answered, wrong ones included. */
  calls: number;
  /** The fewest calls that solve the task. */
  idealCalls: number;
  /** faultRecovery: the transient faults the agent met, and how many of those hops it then followed. */
  faults?: number;
  faultsRecovered?: number;
  /** The most calls in flight at once, measured from the calls' time spans. */
  maxConcurrency: number;
  /** parallelLookup: whether every id was looked up successfully. */
  allRetrieved?: boolean;
}

/** The test name of one size of a family: `-t '<id> size <n>$'` selects exactly it. */
export function familyCaseId(familyId: string, size: number): string {
  return `${familyId} size ${size}`;
}
