import type { FamilyScore, FamilyTask, Responder } from './task.js';
import { reportedCalls } from './task.js';
import { TokenSource } from './tokens.js';
import { toolScript } from './tool-scripts.js';
import type { FamilyInstance, FamilyReport, ToolCall } from './types.js';

// parallelLookup: `size` independent ids, all listed up front in ids.txt; `lookup ID` prints the id's
// value after a short hold, so that calls made in parallel overlap measurably.

const ID_LENGTH = 6;
const VALUE_LENGTH = 8;
const IDS_FILE = 'ids.txt';
const ANSWER_FILE = 'values.txt';
/** Lookups in flight at once in the reference solution, unless the family asks for more. */
const SOLUTION_IN_FLIGHT = 8;
/**
 * What the server holds each lookup for: long beside the start of a tool process on a busy machine,
 * so that calls started together overlap in the log, and short enough that 100 lookups one by one
 * take 20 seconds.
 */
export const LOOKUP_HOLD_MS = 200;

/** What a lookup task hides: each id's value. */
export interface LookupHidden {
  entries: Array<{ id: string; value: string }>;
}

/** A parallel lookup of `size` ids. */
export function lookupTask(instance: FamilyInstance): FamilyTask {
  const tokens = new TokenSource(instance.kind, instance.seed, instance.size);
  const entries = Array.from({ length: instance.size }, () => ({
    id: `id-${tokens.unique(ID_LENGTH)}`,
    value: tokens.any(VALUE_LENGTH),
  }));
  const hidden: LookupHidden = { entries };
  return {
    instance,
    prompt: lookupPrompt(instance.size),
    files: {
      'tools/lookup': toolScript('lookup'),
      [IDS_FILE]: `${entries.map((entry) => entry.id).join('\n')}\n`,
    },
    answerFile: ANSWER_FILE,
    holdMs: LOOKUP_HOLD_MS,
    idealCalls: instance.size,
    solution: [lookupSolution(instance.minConcurrency)],
    hidden,
    createResponder: () => lookupResponder(hidden),
    score: (answer, calls) => scoreLookup(instance, hidden, answer, calls),
  };
}

/** Looks every id up, several at once, and writes the answer: each line is one write, so lines never mix. */
function lookupSolution(minConcurrency: number | undefined): string {
  const inFlight = Math.max(SOLUTION_IN_FLIGHT, minConcurrency ?? 0);
  const one = `printf "%s=%s\\n" "$1" "$(./tools/lookup "$1" | sed -n "s/^value: //p")"`;
  return `xargs -P ${inFlight} -n 1 sh -c '${one}' lookup < ${IDS_FILE} > ${ANSWER_FILE}`;
}

function lookupPrompt(size: number): string {
  return [
    `${IDS_FILE} lists ${size} ids, one a line. Look up the value of every id with ./tools/lookup ID, which prints "value: VALUE".`,
    'The lookups are independent of each other: run them in parallel.',
    `Then write one line ID=VALUE per id to ${ANSWER_FILE}.`,
    '',
  ].join('\n');
}

function lookupResponder(hidden: LookupHidden): Responder {
  const values = new Map(hidden.entries.map((entry) => [entry.id, entry.value]));
  return (tool, arg) => {
    const value = tool === 'lookup' ? values.get(arg) : undefined;
    return value === undefined
      ? { kind: 'error', text: `error: unknown id ${JSON.stringify(arg)}` }
      : { kind: 'ok', text: `value: ${value}` };
  };
}

/** The `ID=VALUE` lines of an answer; the last line of an id wins. */
function parseValues(answer: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of answer.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return values;
}

function scoreLookup(
  instance: FamilyInstance,
  hidden: LookupHidden,
  answer: string | undefined,
  calls: readonly ToolCall[],
): FamilyScore {
  const lookedUp = new Set(calls.flatMap((call) => (call.reply === 'ok' ? [call.arg] : [])));
  const notLookedUp = hidden.entries.filter((entry) => !lookedUp.has(entry.id));
  const report: FamilyReport = {
    ...reportedCalls(instance, calls),
    idealCalls: instance.size,
    allRetrieved: notLookedUp.length === 0,
  };
  const failure = lookupFailure(instance, hidden, notLookedUp, report.maxConcurrency, answer);
  return { report, ...(failure !== undefined && { failure }) };
}

function lookupFailure(
  instance: FamilyInstance,
  hidden: LookupHidden,
  notLookedUp: LookupHidden['entries'],
  inFlight: number,
  answer: string | undefined,
): string | undefined {
  const total = hidden.entries.length;
  const values = answer === undefined ? undefined : parseValues(answer);
  const guessed = notLookedUp.find((entry) => values?.get(entry.id) === entry.value);
  if (guessed !== undefined) {
    return `the value of ${guessed.id} is right but it was never looked up: ${notLookedUp.length} of ${total} ids not looked up`;
  }
  if (notLookedUp[0] !== undefined) {
    return `${notLookedUp.length} of ${total} ids never looked up (first: ${notLookedUp[0].id})`;
  }
  if (values === undefined) return `no answer: ${ANSWER_FILE} was not written`;
  const wrong = hidden.entries.filter((entry) => values.get(entry.id) !== entry.value);
  if (wrong[0] !== undefined) {
    return `${ANSWER_FILE} has ${wrong.length} of ${total} values missing or wrong (first: ${wrong[0].id})`;
  }
  const wanted = instance.minConcurrency;
  if (wanted !== undefined && inFlight < wanted) {
    return `lookups ran at most ${inFlight} at a time; this family asks for ${wanted} in flight at once`;
  }
  return undefined;
}
