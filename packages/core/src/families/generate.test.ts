import { describe, expect, it } from 'vitest';
import type { ChaseHidden } from './chase.js';
import { generateFamilyTask } from './generate.js';
import type { LookupHidden } from './lookup.js';
import type { FamilyTask } from './task.js';
import { FAMILY_KINDS, type FamilyInstance, type FamilyKind } from './types.js';

/** Everything a task is made of, as bytes: prompt, files, hidden answer, and the checks' verdict on a fixed log. */
function bytesOf(task: FamilyTask): string {
  return JSON.stringify({
    prompt: task.prompt,
    files: task.files,
    answerFile: task.answerFile,
    idealCalls: task.idealCalls,
    hidden: task.hidden,
    verdict: task.score('x', []),
  });
}

const instance = (kind: FamilyKind, seed: number, size: number): FamilyInstance => ({ id: 'f', kind, seed, size });

describe('generated families', () => {
  it.each(FAMILY_KINDS)('%s: one seed and size give byte-identical tasks', (kind) => {
    for (const size of [1, 10, 100]) {
      expect(bytesOf(generateFamilyTask(instance(kind, 7, size)))).toBe(
        bytesOf(generateFamilyTask(instance(kind, 7, size))),
      );
    }
  });

  it.each(FAMILY_KINDS)('%s: different seeds, and different sizes, give different tasks', (kind) => {
    const seven = generateFamilyTask(instance(kind, 7, 10));
    const eight = generateFamilyTask(instance(kind, 8, 10));
    expect(JSON.stringify(eight.hidden)).not.toBe(JSON.stringify(seven.hidden));
    const larger = generateFamilyTask(instance(kind, 7, 11));
    expect(JSON.stringify(larger.hidden)).not.toContain(JSON.stringify(seven.hidden).slice(1, 40));
  });

  it('gives a chase of size hops, each key distinct, the secret its fragments in order', () => {
    const task = generateFamilyTask(instance('pointerChase', 3, 50));
    const hidden = task.hidden as ChaseHidden;
    expect(hidden.hops).toHaveLength(50);
    expect(new Set(hidden.hops.map((hop) => hop.key)).size).toBe(50);
    expect(hidden.secret).toBe(hidden.hops.map((hop) => hop.fragment).join(''));
    expect(hidden.faultHops).toEqual([]);
    expect(task.idealCalls).toBe(50);
  });

  it('gives faultRecovery 3 × size hops, every third failing once: faults = size, ideal = hops + faults', () => {
    const task = generateFamilyTask(instance('faultRecovery', 3, 4));
    const hidden = task.hidden as ChaseHidden;
    expect(hidden.hops).toHaveLength(12);
    expect(hidden.faultHops).toEqual([2, 5, 8, 11]);
    expect(task.idealCalls).toBe(16);
  });

  it('shows the agent the first key only: no other key and no fragment is in the prompt, the files or the reference solution', () => {
    for (const kind of ['pointerChase', 'faultRecovery'] as const) {
      const task = generateFamilyTask(instance(kind, 11, 25));
      const hidden = task.hidden as ChaseHidden;
      const visible = task.prompt + Object.values(task.files).join('') + task.solution.join('\n');
      expect(visible).toContain(hidden.hops[0]?.key);
      for (const hop of hidden.hops.slice(1)) expect(visible).not.toContain(hop.key);
      for (const hop of hidden.hops) expect(visible).not.toContain(hop.fragment);
    }
  });

  it('lists every lookup id in ids.txt and none of their values, nor does the reference solution', () => {
    const task = generateFamilyTask(instance('parallelLookup', 5, 30));
    const { entries } = task.hidden as LookupHidden;
    expect(task.files['ids.txt']).toBe(`${entries.map((entry) => entry.id).join('\n')}\n`);
    const visible = task.prompt + Object.values(task.files).join('') + task.solution.join('\n');
    for (const entry of entries) expect(visible).not.toContain(entry.value);
  });

  it('gives the same tool program for every seed and size', () => {
    const a = generateFamilyTask(instance('pointerChase', 1, 2));
    const b = generateFamilyTask(instance('faultRecovery', 9, 40));
    expect(a.files['tools/follow']).toBe(b.files['tools/follow']);
  });
});
