import type { FamilyScore, FamilyTask, Responder } from './task.js';
import { reportedCalls } from './task.js';
import { TokenSource } from './tokens.js';
import { toolScript } from './tool-scripts.js';
import { EXIT_CODES, type FamilyInstance, type FamilyReport, type ToolCall } from './types.js';

// The chase behind pointerChase and faultRecovery: hop i's key, given to `follow`, reveals hop i+1's
// key and fragment i of the secret. The secret is the fragments joined in hop order.

const KEY_LENGTH = 8;
/** Every fragment has this length, so an answer splits back into the fragments it claims to hold. */
export const FRAGMENT_LENGTH = 4;
const ANSWER_FILE = 'answer.txt';
/** The reply that marks the chain's end, in place of a next key. */
export const END_OF_CHAIN = 'END';
/** In faultRecovery every third hop fails once. */
const FAULT_EVERY = 3;

/** One hop of a chain. */
export interface Hop {
  key: string;
  fragment: string;
}

/** What a chase task hides: the chain, which hops fail once, and the secret. */
export interface ChaseHidden {
  hops: Hop[];
  /** 0-based indexes of the hops whose first call fails with a transient error. */
  faultHops: number[];
  secret: string;
}

/**
 * A pointer chase of `size` hops, or for faultRecovery one of 3 × size hops whose every third hop
 * fails once, so that the task meets exactly `size` faults.
 */
export function chaseTask(instance: FamilyInstance): FamilyTask {
  const faulty = instance.kind === 'faultRecovery';
  const length = faulty ? instance.size * FAULT_EVERY : instance.size;
  const tokens = new TokenSource(instance.kind, instance.seed, instance.size);
  const hops: Hop[] = Array.from({ length }, () => ({
    key: tokens.unique(KEY_LENGTH),
    fragment: tokens.any(FRAGMENT_LENGTH),
  }));
  const faultHops = faulty ? hops.flatMap((_, index) => ((index + 1) % FAULT_EVERY === 0 ? [index] : [])) : [];
  const hidden: ChaseHidden = { hops, faultHops, secret: hops.map((hop) => hop.fragment).join('') };
  const first = hops[0]?.key ?? '';
  return {
    instance,
    prompt: chasePrompt(length, first, faulty),
    files: { 'tools/follow': toolScript('follow') },
    answerFile: ANSWER_FILE,
    holdMs: 0,
    idealCalls: length + faultHops.length,
    solution: [chaseSolution(first)],
    hidden,
    createResponder: () => chaseResponder(hidden),
    score: (answer, calls) => scoreChase(instance, hidden, answer, calls),
  };
}

/** Follows the chain from its first key, calling again after a transient fault, and writes the answer. */
function chaseSolution(first: string): string {
  return [
    // Keys are drawn from letters and digits: the first is safe as a word of the shell.
    `key=${first}; answer=''`,
    `while [ "$key" != ${END_OF_CHAIN} ]; do`,
    '  reply=$(./tools/follow "$key"); status=$?',
    `  if [ "$status" -eq ${EXIT_CODES.fault} ]; then continue; fi`,
    '  [ "$status" -eq 0 ] || exit "$status"',
    `  answer="$answer$(printf '%s\\n' "$reply" | sed -n 's/^fragment: //p')"`,
    `  key=$(printf '%s\\n' "$reply" | sed -n 's/^next: //p')`,
    'done',
    `printf '%s\\n' "$answer" > ${ANSWER_FILE}`,
  ].join('\n');
}

function chasePrompt(length: number, first: string, faulty: boolean): string {
  const lines = [
    `Follow a chain of ${length} keys with the tool ./tools/follow, starting with: ./tools/follow ${first}`,
    `Each call prints two lines, "next: KEY" and "fragment: TEXT". Call ./tools/follow with each next key in turn until a call prints "next: ${END_OF_CHAIN}".`,
    ...(faulty
      ? [
          `The tool sometimes fails with a transient error (exit code ${EXIT_CODES.fault}): then call it again with the same key.`,
        ]
      : []),
    `Then write every fragment, in the order the calls gave them and with nothing between them, to ${ANSWER_FILE}.`,
  ];
  return `${lines.join('\n')}\n`;
}

function chaseResponder(hidden: ChaseHidden): Responder {
  const indexOf = new Map(hidden.hops.map((hop, index) => [hop.key, index]));
  const faultPending = new Set(hidden.faultHops);
  return (tool, arg) => {
    const index = tool === 'follow' ? indexOf.get(arg) : undefined;
    if (index === undefined) return { kind: 'error', text: `error: unknown key ${JSON.stringify(arg)}` };
    if (faultPending.delete(index)) {
      return {
        kind: 'fault',
        text: 'error: transient failure, nothing was lost: call ./tools/follow again with the same key',
      };
    }
    const hop = hidden.hops[index];
    const next = hidden.hops[index + 1]?.key ?? END_OF_CHAIN;
    return { kind: 'ok', text: `next: ${next}\nfragment: ${hop?.fragment ?? ''}` };
  };
}

/** How far the calls followed the chain, in order, and what they met on the way. */
interface ChaseProgress {
  /** Hops followed in order: the answer may hold this many fragments honestly. */
  followed: number;
  /** A hop whose key was followed before the hop before it (1-based), when the calls skipped ahead. */
  outOfOrder?: number;
  faults: number;
  faultsRecovered: number;
}

function progressOf(hidden: ChaseHidden, calls: readonly ToolCall[]): ChaseProgress {
  const indexOf = new Map(hidden.hops.map((hop, index) => [hop.key, index]));
  const faulted = new Set<number>();
  const recovered = new Set<number>();
  let followed = 0;
  let outOfOrder: number | undefined;
  for (const call of calls) {
    const index = indexOf.get(call.arg);
    if (index === undefined) continue;
    if (call.reply === 'fault') faulted.add(index);
    if (call.reply !== 'ok') continue;
    if (faulted.has(index)) recovered.add(index);
    if (index === followed) followed++;
    else if (index > followed) outOfOrder ??= index + 1;
  }
  return {
    followed,
    ...(outOfOrder !== undefined && { outOfOrder }),
    faults: faulted.size,
    faultsRecovered: recovered.size,
  };
}

function scoreChase(
  instance: FamilyInstance,
  hidden: ChaseHidden,
  answer: string | undefined,
  calls: readonly ToolCall[],
): FamilyScore {
  const progress = progressOf(hidden, calls);
  const total = hidden.hops.length;
  const report: FamilyReport = {
    ...reportedCalls(instance, calls),
    idealCalls: total + hidden.faultHops.length,
    ...(instance.kind === 'faultRecovery' && { faults: progress.faults, faultsRecovered: progress.faultsRecovered }),
  };
  const failure = chaseFailure(hidden, progress, answer?.trim());
  return { report, ...(failure !== undefined && { failure }) };
}

function chaseFailure(hidden: ChaseHidden, progress: ChaseProgress, answer: string | undefined): string | undefined {
  const total = hidden.hops.length;
  const { followed } = progress;
  if (progress.outOfOrder !== undefined) {
    return `hop ${progress.outOfOrder} followed before hop ${followed + 1}: the chain was not followed in order`;
  }
  const fragments = answer === undefined ? 0 : Math.ceil(answer.length / FRAGMENT_LENGTH);
  if (followed < total) {
    const stuck = followed + 1;
    if (fragments > followed) {
      return `hop ${stuck} skipped: the answer has ${fragments} fragments but follow calls reached only ${followed} of ${total} hops`;
    }
    if (hidden.faultHops.includes(followed) && progress.faults > progress.faultsRecovered) {
      return `gave up after fault at hop ${stuck}: follow was not called again with its key (${followed} of ${total} hops followed)`;
    }
    return `stopped at hop ${stuck}: follow calls reached only ${followed} of ${total} hops`;
  }
  if (answer === undefined || answer === '') return `no answer: ${ANSWER_FILE} was not written or is empty`;
  if (answer === hidden.secret) return undefined;
  const wrong = hidden.hops.findIndex(
    (hop, index) => answer.slice(index * FRAGMENT_LENGTH, (index + 1) * FRAGMENT_LENGTH) !== hop.fragment,
  );
  if (wrong === -1) {
    return `the answer has ${fragments} fragments, the chain ${total}: text after fragment ${total}`;
  }
  const found = answer.slice(wrong * FRAGMENT_LENGTH, (wrong + 1) * FRAGMENT_LENGTH);
  return `answer wrong from fragment ${wrong + 1} of ${total} (${found === '' ? 'missing' : `found ${JSON.stringify(found)}`}): a fragment skipped or misread`;
}
