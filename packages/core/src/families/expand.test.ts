import { describe, expect, it } from 'vitest';
import { parseSuiteSource } from '../suite/load.js';

/** The message loading a suite with these families fails with. */
function problem(families: unknown[], cases: unknown[] = []): string {
  try {
    parseSuiteSource(JSON.stringify({ name: 's', cases, families }), 'x.bench.json');
  } catch (error) {
    return (error as Error).message;
  }
  return 'loaded';
}

describe('families in a suite', () => {
  it("become one case per size, after the suite's own cases, with the family's settings", () => {
    const suite = parseSuiteSource(
      JSON.stringify({
        name: 's',
        cases: [{ id: 'own', prompt: 'p', checks: [] }],
        families: [
          {
            id: 'chase',
            kind: 'pointerChase',
            seed: 7,
            sizes: [10, 100],
            timeoutSec: 30,
            tags: ['gen'],
            meta: { a: 1 },
          },
          { id: 'look', kind: 'parallelLookup', seed: 1, sizes: [3], minConcurrency: 2, network: false },
        ],
      }),
    );
    expect(suite.cases.map((c) => c.id)).toEqual(['own', 'chase size 10', 'chase size 100', 'look size 3']);
    expect(suite.cases[1]).toMatchObject({
      checks: [],
      timeoutSec: 30,
      tags: ['gen'],
      meta: { a: 1 },
      family: { id: 'chase', kind: 'pointerChase', seed: 7, size: 10 },
    });
    expect(suite.cases[1]?.prompt).toContain('./tools/follow ');
    expect(suite.cases[3]).toMatchObject({ network: false, family: { minConcurrency: 2, size: 3 } });
  });

  it('names each size so that a -t regex ending in $ picks exactly one', () => {
    const suite = parseSuiteSource(
      JSON.stringify({
        name: 's',
        cases: [],
        families: [{ id: 'chase', kind: 'pointerChase', seed: 7, sizes: [10, 100] }],
      }),
    );
    const picked = suite.cases.filter((c) => /chase size 10$/.test(`s ${c.id}`));
    expect(picked.map((c) => c.id)).toEqual(['chase size 10']);
  });

  it.each([
    [
      'an unknown kind',
      [{ id: 'f', kind: 'maze', seed: 1, sizes: [1] }],
      'families[0].kind: unknown family kind "maze"; expected one of pointerChase, faultRecovery, parallelLookup',
    ],
    [
      'no sizes',
      [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [] }],
      'families[0].sizes: must list at least one size',
    ],
    [
      'a duplicate size',
      [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [5, 5] }],
      'families[0].sizes[1]: duplicate size 5',
    ],
    [
      'a size out of bounds',
      [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [1001] }],
      'families[0].sizes[0]: must be an integer from 1 to 1000',
    ],
    [
      'a fractional size',
      [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [2.5] }],
      'families[0].sizes[0]: must be an integer',
    ],
    [
      'a negative seed',
      [{ id: 'f', kind: 'pointerChase', seed: -1, sizes: [1] }],
      'families[0].seed: must be an integer from 0 to 4294967295',
    ],
    [
      'a duplicate family id',
      [
        { id: 'f', kind: 'pointerChase', seed: 1, sizes: [1] },
        { id: 'f', kind: 'faultRecovery', seed: 1, sizes: [2] },
      ],
      'families[1].id: duplicate family id "f"',
    ],
    [
      'minConcurrency on a chase',
      [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [1], minConcurrency: 2 }],
      'families[0].minConcurrency: minConcurrency applies to parallelLookup only',
    ],
    ['an unknown key', [{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [1], depth: 3 }], 'families[0]'],
  ])('are refused with %s, and say where', (_title, families, message) => {
    expect(problem(families)).toContain(message);
  });

  it('are refused when a size names a case the suite already has', () => {
    expect(
      problem([{ id: 'f', kind: 'pointerChase', seed: 1, sizes: [3] }], [{ id: 'f size 3', prompt: 'p', checks: [] }]),
    ).toContain('families[0].id: family "f" generates case "f size 3", which the suite already has');
  });

  it('cannot be smuggled in as a case with a family of its own', () => {
    const written = { id: 'c', prompt: 'p', checks: [], family: { id: 'f', kind: 'pointerChase', seed: 1, size: 1 } };
    expect(problem([], [written])).toContain('cases[0]');
  });
});
