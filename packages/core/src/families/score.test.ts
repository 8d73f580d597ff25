import { describe, expect, it } from 'vitest';
import type { ChaseHidden } from './chase.js';
import { generateFamilyTask } from './generate.js';
import type { LookupHidden } from './lookup.js';
import type { FamilyTask } from './task.js';
import type { FamilyInstance, ToolCall } from './types.js';

// Call logs made by driving each task's own responder, as the tool server does, with the time spans
// a real run would have.

/** Calls `args` through the task's responder one after another (or all at once), logging each. */
function drive(task: FamilyTask, args: string[], overlap = false): ToolCall[] {
  const respond = task.createResponder();
  const tool = 'tools/follow' in task.files ? 'follow' : 'lookup';
  return args.map((arg, index) => {
    const startMs = overlap ? 0 : index * 10;
    return { tool, arg, startMs, endMs: startMs + 5, reply: respond(tool, arg).kind };
  });
}

/** A chase solved the careful way: every key once, a faulted key once more. */
function carefulArgs(hidden: ChaseHidden): string[] {
  return hidden.hops.flatMap((hop, index) => (hidden.faultHops.includes(index) ? [hop.key, hop.key] : [hop.key]));
}

const chase = (size: number, kind: FamilyInstance['kind'] = 'pointerChase') =>
  generateFamilyTask({ id: 'chase', kind, seed: 42, size });

describe('scoring a pointer chase', () => {
  it('passes the chain followed in order with the secret written', () => {
    const task = chase(10);
    const hidden = task.hidden as ChaseHidden;
    const scored = task.score(`${hidden.secret}\n`, drive(task, carefulArgs(hidden)));
    expect(scored.failure).toBeUndefined();
    expect(scored.report).toEqual({
      id: 'chase',
      kind: 'pointerChase',
      seed: 42,
      size: 10,
      calls: 10,
      idealCalls: 10,
      maxConcurrency: 1,
    });
  });

  it('fails a guessed last fragment: more fragments than hops followed', () => {
    const task = chase(10);
    const hidden = task.hidden as ChaseHidden;
    const calls = drive(
      task,
      hidden.hops.slice(0, 9).map((hop) => hop.key),
    );
    // Even the right answer is a guess when hop 10 was never followed.
    expect(task.score(hidden.secret, calls).failure).toBe(
      'hop 10 skipped: the answer has 10 fragments but follow calls reached only 9 of 10 hops',
    );
  });

  it('fails an answer that leaves a fragment out', () => {
    const task = chase(10);
    const hidden = task.hidden as ChaseHidden;
    const fragments = hidden.hops.map((hop) => hop.fragment);
    fragments.splice(4, 1);
    const failure = task.score(fragments.join(''), drive(task, carefulArgs(hidden))).failure;
    expect(failure).toBe(
      `answer wrong from fragment 5 of 10 (found ${JSON.stringify(hidden.hops[5]?.fragment)}): a fragment skipped or misread`,
    );
  });

  it('fails a chain that stopped, and one with no answer', () => {
    const task = chase(5);
    const hidden = task.hidden as ChaseHidden;
    const three = drive(
      task,
      hidden.hops.slice(0, 3).map((hop) => hop.key),
    );
    expect(task.score(undefined, three).failure).toBe('stopped at hop 4: follow calls reached only 3 of 5 hops');
    expect(task.score(undefined, drive(task, carefulArgs(hidden))).failure).toBe(
      'no answer: answer.txt was not written or is empty',
    );
  });

  it('counts wrong keys as calls, and answers them with an error', () => {
    const task = chase(3);
    const hidden = task.hidden as ChaseHidden;
    const calls = drive(task, ['nosuchkey', ...carefulArgs(hidden)]);
    expect(calls[0]?.reply).toBe('error');
    const scored = task.score(hidden.secret, calls);
    expect(scored.failure).toBeUndefined();
    expect(scored.report.calls).toBe(4);
  });
});

describe('scoring fault recovery', () => {
  it('fails every third hop once and passes an agent that calls again: faults = size, all recovered', () => {
    const task = chase(3, 'faultRecovery');
    const hidden = task.hidden as ChaseHidden;
    const calls = drive(task, carefulArgs(hidden));
    expect(calls.filter((call) => call.reply === 'fault').map((call) => call.arg)).toEqual(
      [2, 5, 8].map((index) => hidden.hops[index]?.key),
    );
    const scored = task.score(hidden.secret, calls);
    expect(scored.failure).toBeUndefined();
    expect(scored.report).toMatchObject({ calls: 12, idealCalls: 12, faults: 3, faultsRecovered: 3 });
  });

  it('fails an agent that gives up at the first fault, and says where', () => {
    const task = chase(3, 'faultRecovery');
    const hidden = task.hidden as ChaseHidden;
    const calls = drive(
      task,
      hidden.hops.slice(0, 3).map((hop) => hop.key),
    );
    const partial = hidden.hops
      .slice(0, 2)
      .map((hop) => hop.fragment)
      .join('');
    const scored = task.score(partial, calls);
    expect(scored.failure).toBe(
      'gave up after fault at hop 3: follow was not called again with its key (2 of 9 hops followed)',
    );
    expect(scored.report).toMatchObject({ calls: 3, faults: 1, faultsRecovered: 0 });
  });
});

describe('scoring a parallel lookup', () => {
  const task = generateFamilyTask({ id: 'look', kind: 'parallelLookup', seed: 1, size: 6, minConcurrency: 3 });
  const { entries } = task.hidden as LookupHidden;
  const answer = (list = entries) => list.map((entry) => `${entry.id}=${entry.value}`).join('\n');

  it('passes every value looked up in parallel, and measures how many were in flight', () => {
    const scored = task.score(
      answer(),
      drive(
        task,
        entries.map((entry) => entry.id),
        true,
      ),
    );
    expect(scored.failure).toBeUndefined();
    expect(scored.report).toMatchObject({ calls: 6, idealCalls: 6, maxConcurrency: 6, allRetrieved: true });
  });

  it('fails serialised lookups where the family asks for concurrency', () => {
    const scored = task.score(
      answer(),
      drive(
        task,
        entries.map((entry) => entry.id),
      ),
    );
    expect(scored.report.maxConcurrency).toBe(1);
    expect(scored.failure).toBe('lookups ran at most 1 at a time; this family asks for 3 in flight at once');
  });

  it('fails a right value that was never looked up, and ids left out', () => {
    const calls = drive(
      task,
      entries.slice(1).map((entry) => entry.id),
      true,
    );
    expect(task.score(answer(), calls).failure).toBe(
      `the value of ${entries[0]?.id} is right but it was never looked up: 1 of 6 ids not looked up`,
    );
    expect(task.score(answer(entries.slice(1)), calls).failure).toBe(
      `1 of 6 ids never looked up (first: ${entries[0]?.id})`,
    );
    expect(task.score(answer(entries.slice(1)), calls).report.allRetrieved).toBe(false);
  });

  it('fails a wrong value', () => {
    const wrong = entries.map((entry, index) => (index === 2 ? { ...entry, value: 'nope' } : entry));
    const calls = drive(
      task,
      entries.map((entry) => entry.id),
      true,
    );
    expect(task.score(answer(wrong), calls).failure).toBe(
      `values.txt has 1 of 6 values missing or wrong (first: ${entries[2]?.id})`,
    );
  });
});
