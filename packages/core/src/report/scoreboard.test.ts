import { describe, expect, it } from 'vitest';
import { buildScoreboard, caseKey } from './scoreboard.js';
import { twoAgents } from './test-support/scoreboard-rows.js';
import { fakeTrials, trial } from './test-support/trials.js';

const noOutcomes = {
  passed: 0,
  failed: 0,
  timedOut: 0,
  tampered: 0,
  agentError: 0,
  overBudget: 0,
  harnessError: 0,
  notRun: 0,
};

describe('buildScoreboard', () => {
  const scoreboard = buildScoreboard(twoAgents);

  it('lists cases and agents in the order of the rows', () => {
    expect(scoreboard.rule).toBe('majority');
    expect(scoreboard.maxTrials).toBe(3);
    expect(scoreboard.cases.map((entry) => entry.id)).toEqual(['write-hello', 'fix-bug', 'rename']);
    expect(scoreboard.agents.map((agent) => agent.name)).toEqual(['opus', 'haiku']);
    expect(scoreboard.cells.map((cell) => `${cell.id}/${cell.agent}`)).toEqual([
      'write-hello/opus',
      'write-hello/haiku',
      'fix-bug/opus',
      'fix-bug/haiku',
      'rename/opus',
      'rename/haiku',
    ]);
  });

  it('scores each cell', () => {
    const [helloOpus, helloHaiku, fixOpus, fixHaiku, renameOpus] = scoreboard.cells;
    // 3 of 3: pass@k' = 1 for every k', pass^k' = C(3,k')/C(3,k') = 1; median of 1000, 1100, 1200.
    expect(helloOpus).toEqual({
      file: 'bench/demo.bench.json',
      suite: 'demo',
      id: 'write-hello',
      agent: 'opus',
      trials: 3,
      passes: 3,
      outcomes: { ...noOutcomes, passed: 3 },
      passAt1: 1,
      passAtK: [1, 1, 1],
      passHatK: [1, 1, 1],
      flaky: false,
      passed: true,
      medianDurationMs: 1100,
    });
    // 2 of 3: pass@1 = 2/3, pass@2 = 1 − C(1,2)/C(3,2) = 1, pass@3 = 1;
    // pass^1 = 2/3, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = 0. Majority: 4 > 3. Median of 3000, 4000, 5000.
    expect(fixOpus).toMatchObject({
      passes: 2,
      outcomes: { ...noOutcomes, passed: 2, failed: 1 },
      passAt1: 2 / 3,
      passAtK: [2 / 3, 1, 1],
      passHatK: [2 / 3, expect.closeTo(1 / 3, 12), 0],
      flaky: true,
      passed: true,
      medianDurationMs: 4000,
    });
    // 1 of 3: pass@2 = 1 − C(2,2)/C(3,2) = 2/3; pass^2 = 0. Majority: 2 > 3 fails.
    expect(helloHaiku).toMatchObject({
      passes: 1,
      passAtK: [1 / 3, expect.closeTo(2 / 3, 12), 1],
      passHatK: [1 / 3, 0, 0],
      flaky: true,
      passed: false,
      medianDurationMs: 700,
    });
    // 0 of 3 with a timeout: every estimate 0, not flaky (nothing passed).
    expect(fixHaiku).toMatchObject({
      passes: 0,
      outcomes: { ...noOutcomes, failed: 2, timedOut: 1 },
      passAtK: [0, 0, 0],
      flaky: false,
      passed: false,
      medianDurationMs: 2500,
    });
    expect(renameOpus).toMatchObject({
      outcomes: { ...noOutcomes, passed: 2, agentError: 1 },
      medianDurationMs: 20_000,
    });
  });

  it('scores each agent with its interval, outcomes, time and usage', () => {
    const [opus, haiku] = scoreboard.agents;
    // opus: cases 3/3, 2/3, 2/3 → p = 7/9. Residuals 3 − 7/3 = 2/3, −1/3, −1/3; squares 6/9.
    // V = 3/2 · (6/9)/81 = 1/81; binomial (7/9)(2/9)/9 = 14/729; deff = 9/14 < 1 → 1; n_eff = 9.
    // Wilson(7/9, 9): d = 1 + z²/9 = 1.426829, centre = (0.777778 + z²/18)/d = 0.991192/1.426829 = 0.694682,
    // half = (z/d)·√(0.019204 + z²/324) = 1.373650 · √(0.019204 + 0.011856) = 1.373650 · 0.176241 = 0.242093.
    expect(opus).toMatchObject({
      name: 'opus',
      cases: 3,
      trials: 9,
      passes: 7,
      cellsPassed: 3,
      passRate: 7 / 9,
      interval: {
        low: expect.closeTo(0.452589, 6),
        high: expect.closeTo(0.936775, 6),
        effectiveTrials: 9,
        designEffect: 1,
      },
      outcomes: { ...noOutcomes, passed: 7, failed: 1, agentError: 1 },
      errors: 1,
      wrong: 1,
      // Sorted 500, 1000, 1100, 1200, 3000, 4000, 5000, 20000, 22000: the fifth.
      medianDurationMs: 3000,
      usage: {
        trialsWithUsage: 9,
        inputTokens: 108_000, // 9 × 12,000
        outputTokens: 7200, // 9 × 800
        cachedInputTokens: 36_000, // 9 × 4000
        costUsd: expect.closeTo(0.45, 12), // 9 × 0.05
        costIsEstimate: true,
        models: ['claude-opus-4-1', 'claude-sonnet-4-5'],
      },
    });
    // haiku: 1/3, 0/3, 1/3 → p = 2/9, the mirror of opus: Wilson(2/9, 9) = 1 − [0.936775, 0.452589].
    expect(haiku).toMatchObject({
      passes: 2,
      cellsPassed: 0,
      passRate: 2 / 9,
      interval: { low: expect.closeTo(0.063225, 6), high: expect.closeTo(0.547411, 6) },
      outcomes: { ...noOutcomes, passed: 2, failed: 5, timedOut: 1, harnessError: 1 },
      errors: 1,
      wrong: 6,
      usage: { trialsWithUsage: 0, costIsEstimate: false, models: [] },
    });
    expect(haiku?.usage).not.toHaveProperty('inputTokens');
    expect(haiku?.usage).not.toHaveProperty('costUsd');
  });

  it('calls a lead on three cases noise', () => {
    // Per-case rates opus 1, 2/3, 2/3 and haiku 1/3, 0, 1/3: differences 2/3, 2/3, 1/3, mean 5/9.
    // Of the 8 sign patterns only all-plus and all-minus reach |Σ| = 5/3: p = 2/8 = 0.25.
    expect(scoreboard.verdict).toEqual({
      ranking: ['opus', 'haiku'],
      leader: 'opus',
      runnerUp: 'haiku',
      leaderPassRate: 7 / 9,
      runnerUpPassRate: 2 / 9,
      pairedCases: 3,
      meanDifference: expect.closeTo(5 / 9, 12),
      pValue: 0.25,
      method: 'exact',
      withinNoise: true,
    });
  });

  it('names a winner when the paired cases say so', () => {
    // Six cases a passes and b fails: p = 2/2^6 = 0.03125 < 0.05.
    const rows = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].flatMap((id) => [
      trial('b', id, 1, 'failed', 10),
      trial('a', id, 1, 'passed', 10),
    ]);
    const verdict = buildScoreboard(rows).verdict;
    expect(verdict).toMatchObject({ ranking: ['a', 'b'], winner: 'a', pValue: 0.03125, meanDifference: 1 });
    expect(verdict).not.toHaveProperty('withinNoise');
  });

  it('names no winner when the paired cases contradict the pooled rates', () => {
    // a fails the 6 cases both ran and passes 20 of its own: 20/26. b passes the 6 and fails 20 of its own:
    // 6/26. a leads on rates, but on the paired cases b is better every time (p = 2/2^6 = 0.03125): a lead
    // the paired cases contradict is no win.
    const shared = ['s1', 's2', 's3', 's4', 's5', 's6'].flatMap((id) => [
      trial('a', id, 1, 'failed', 10),
      trial('b', id, 1, 'passed', 10),
    ]);
    const onlyA = Array.from({ length: 20 }, (_, index) => trial('a', `a${index}`, 1, 'passed', 10));
    const onlyB = Array.from({ length: 20 }, (_, index) => trial('b', `b${index}`, 1, 'failed', 10));
    const verdict = buildScoreboard([...shared, ...onlyA, ...onlyB]).verdict;
    expect(verdict).toMatchObject({
      leader: 'a',
      pairedCases: 6,
      meanDifference: -1,
      pValue: 0.03125,
      withinNoise: true,
    });
    expect(verdict).not.toHaveProperty('winner');
  });

  it('decides cells by the rule it is given', () => {
    // opus cells 3/3, 2/3, 2/3 and haiku 1/3, 0/3, 1/3.
    const passedBy = (rule: Parameters<typeof buildScoreboard>[1]) =>
      buildScoreboard(twoAgents, rule).agents.map((agent) => agent.cellsPassed);
    expect(passedBy({ rule: 'all' })).toEqual([1, 0]);
    expect(passedBy({ rule: 'any' })).toEqual([3, 2]);
    expect(passedBy({ rule: 0.6 })).toEqual([3, 0]); // 2/3 ≥ 0.6, 1/3 is not
    expect(passedBy({ rule: 1 / 3 })).toEqual([3, 2]);
    expect(buildScoreboard(twoAgents, { rule: 'all' }).rule).toBe('all');
  });

  it('names the agent of rows without one by the label, with no verdict for one agent', () => {
    const rows = [trial(undefined, 'x', 1, 'passed', 100), trial(undefined, 'x', 2, 'failed', 300)];
    const single = buildScoreboard(rows, { agentLabel: 'my-agent' });
    expect(single.agents.map((agent) => agent.name)).toEqual(['my-agent']);
    expect(single.cells[0]).toMatchObject({ agent: 'my-agent', trials: 2, passes: 1, medianDurationMs: 200 });
    expect(single).not.toHaveProperty('verdict');
    expect(buildScoreboard(rows).agents[0]?.name).toBe('agent');
  });

  it('keeps apart cases of the same id in two suite files, and leaves out the time of trials that did not run', () => {
    const rows = [
      trial('a', 'x', 1, 'passed', 100),
      { ...trial('a', 'x', 1, 'notRun', 0), file: 'bench/other.bench.json' },
    ];
    const board = buildScoreboard(rows);
    expect(board.cases).toHaveLength(2);
    expect(board.cells.map((cell) => [cell.file, cell.passes, cell.medianDurationMs])).toEqual([
      ['bench/demo.bench.json', 1, 100],
      ['bench/other.bench.json', 0, null],
    ]);
    expect(board.agents[0]).toMatchObject({ cases: 2, errors: 1, medianDurationMs: 100 });
    expect(caseKey(board.cases[0] ?? { file: '', suite: '', id: '' })).not.toBe(
      caseKey(board.cases[1] ?? { file: '', suite: '', id: '' }),
    );
  });

  it('is serialisable and empty without rows', () => {
    expect(JSON.parse(JSON.stringify(scoreboard))).toEqual(scoreboard);
    expect(buildScoreboard([])).toEqual({ rule: 'majority', maxTrials: 0, cases: [], agents: [], cells: [] });
  });
});

describe('buildScoreboard on agents of known skill (seeded)', () => {
  const seeds = Array.from({ length: 20 }, (_, index) => index + 1);

  it('declares the better agent the winner: 0.8 against 0.3 over 30 cases × 5 trials', () => {
    for (const seed of seeds.slice(0, 5)) {
      const rows = fakeTrials(
        [
          { name: 'weak', skill: 0.3 },
          { name: 'strong', skill: 0.8 },
        ],
        30,
        5,
        seed,
      );
      const board = buildScoreboard(rows);
      expect(board.verdict, `seed ${seed}`).toMatchObject({ winner: 'strong', runnerUp: 'weak', pairedCases: 30 });
      // 30 cases, nearly all with a non-zero difference: more than 20, so the p-value is sampled.
      expect(board.verdict?.method).toBe('monteCarlo');
      const [weak, strong] = board.agents;
      // Over 150 independent trials each rate lies within a few standard errors (√(p(1−p)/150) ≤ 0.041) of its skill.
      expect(Math.abs((strong?.passRate ?? 0) - 0.8)).toBeLessThan(0.13);
      expect(Math.abs((weak?.passRate ?? 0) - 0.3)).toBeLessThan(0.13);
    }
  });

  it('finds two agents of equal skill within noise for most seeds', () => {
    const verdicts = seeds.map(
      (seed) =>
        buildScoreboard(
          fakeTrials(
            [
              { name: 'first', skill: 0.5 },
              { name: 'second', skill: 0.5 },
            ],
            30,
            5,
            seed,
          ),
        ).verdict,
    );
    const withinNoise = verdicts.filter((verdict) => verdict?.withinNoise === true).length;
    // A 5 % test on alike agents declares a winner once in 20 on average; allow a few.
    expect(withinNoise).toBeGreaterThanOrEqual(17);
    for (const verdict of verdicts) {
      if (verdict?.winner !== undefined) expect(verdict.pValue).toBeLessThan(0.05);
      else expect(verdict?.pValue).toBeGreaterThanOrEqual(0.05);
    }
  });

  it('covers the true skill with its 95 % interval for most seeds', () => {
    const covered = seeds.filter((seed) => {
      const [agent] = buildScoreboard(fakeTrials([{ name: 'a', skill: 0.7 }], 30, 5, seed)).agents;
      return agent !== undefined && agent.interval.low <= 0.7 && 0.7 <= agent.interval.high;
    }).length;
    expect(covered).toBeGreaterThanOrEqual(17);
  });
});
