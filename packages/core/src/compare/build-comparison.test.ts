import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../report/model.js';
import { buildComparison } from './build-comparison.js';
import { cell, loaded } from './test-support/reports.js';

const compare = (base: ReportResult[], head: ReportResult[]) =>
  buildComparison(loaded('base.json', base), loaded('head.json', head));

describe('buildComparison: pairing', () => {
  it('pairs cells by suite file, case id and agent, whatever the order of the rows', () => {
    const base = [...cell('claude', 'a', 1, 1), ...cell('codex', 'a', 0, 1), ...cell('claude', 'b', 1, 1)];
    const head = [...cell('claude', 'b', 1, 1), ...cell('claude', 'a', 1, 1), ...cell('codex', 'a', 0, 1)];
    const comparison = compare(base, head);
    expect(comparison.cells.map((c) => [c.id, c.agent, c.base.passes, c.head.passes])).toEqual([
      ['b', 'claude', 1, 1],
      ['a', 'claude', 1, 1],
      ['a', 'codex', 0, 0],
    ]);
    expect(comparison.newCells).toEqual([]);
    expect(comparison.removedCells).toEqual([]);
  });

  it('keeps cells of the same id in another suite file apart', () => {
    const other = (rows: ReportResult[]) => rows.map((row) => ({ ...row, file: 'bench/other.bench.json' }));
    const comparison = compare(
      [...cell('claude', 'a', 1, 1), ...other(cell('claude', 'a', 0, 1))],
      [...cell('claude', 'a', 1, 1), ...other(cell('claude', 'a', 0, 1))],
    );
    expect(comparison.cells).toHaveLength(2);
    expect(comparison.verdict).toBe('within noise');
  });

  it('names the agent of rows without one `agent`, as the scoreboard does', () => {
    const comparison = compare(cell(undefined, 'a', 1, 1), cell(undefined, 'a', 0, 1));
    expect(comparison.cells[0]?.agent).toBe('agent');
    expect(comparison.agents.map((agent) => agent.name)).toEqual(['agent']);
  });

  it('lists cells only in head as new and cells only in base as removed, outside the verdict', () => {
    const comparison = compare(
      [...cell('claude', 'kept', 1, 1), ...cell('claude', 'gone', 1, 1)],
      [...cell('claude', 'kept', 1, 1), ...cell('claude', 'added', 0, 2), ...cell('gemini', 'kept', 0, 1)],
    );
    expect(comparison.newCells.map((c) => [c.id, c.agent, c.tally])).toEqual([
      ['added', 'claude', { trials: 2, passes: 0, notRun: 0, passed: false }],
      ['kept', 'gemini', { trials: 1, passes: 0, notRun: 0, passed: false }],
    ]);
    expect(comparison.removedCells.map((c) => [c.id, c.agent, c.tally.passes])).toEqual([['gone', 'claude', 1]]);
    // An agent with no cell in both reports has nothing to be judged on.
    expect(comparison.agents.map((agent) => agent.name)).toEqual(['claude']);
    expect(comparison.verdict).toBe('within noise');
    expect(comparison.reason).toBe('within noise: no case changed');
  });
});

describe('buildComparison: one trial a side', () => {
  it('counts every flip: pass → fail is a regression, fail → pass an improvement', () => {
    const comparison = compare(
      [...cell('claude', 'broke', 1, 1), ...cell('claude', 'fixed', 0, 1), ...cell('claude', 'same', 1, 1)],
      [...cell('claude', 'broke', 0, 1), ...cell('claude', 'fixed', 1, 1), ...cell('claude', 'same', 1, 1)],
    );
    const [broke, fixed, same] = comparison.cells;
    expect(broke?.flip).toBe('passToFail');
    expect(broke?.change).toEqual({ verdict: 'regression', pWorse: 0, pBetter: 1, method: 'flip' });
    expect(fixed?.flip).toBe('failToPass');
    expect(fixed?.change?.verdict).toBe('improvement');
    expect(same?.flip).toBeNull();
    expect(same?.change?.verdict).toBe('unchanged');
    expect(comparison.verdict).toBe('regression');
    expect(comparison.reason).toBe(
      'regression: broke (claude) 1/1 → 0/1, one trial each; 1 case improved (fixed (claude) 0/1 → 1/1, one trial each)',
    );
  });

  it('is an improvement when a case newly passes and none regressed', () => {
    const comparison = compare(cell('claude', 'fixed', 0, 1), cell('claude', 'fixed', 1, 1));
    expect(comparison.verdict).toBe('improvement');
    expect(comparison.reason).toBe('improvement: fixed (claude) 0/1 → 1/1, one trial each');
  });
});

describe('buildComparison: trials', () => {
  // The two cases the verdict must tell apart: a true regression and a drop that chance explains.
  const base = [...cell('claude', 'fix-bug', 3, 3), ...cell('claude', 'write-docs', 3, 3)];
  const head = [...cell('claude', 'fix-bug', 0, 3), ...cell('claude', 'write-docs', 2, 3)];

  it('calls 3/3 → 0/3 a regression (mid-p 1/40) and 3/3 → 2/3 within noise (mid-p 1/4)', () => {
    const comparison = compare(base, head);
    const [fixBug, writeDocs] = comparison.cells;
    expect(fixBug?.change?.verdict).toBe('regression');
    expect(fixBug?.change?.method).toBe('fisherMidP');
    expect(fixBug?.change?.pWorse).toBeCloseTo(0.025, 12);
    expect(fixBug?.flip).toBe('passToFail');
    expect(writeDocs?.change?.verdict).toBe('unchanged');
    expect(writeDocs?.change?.pWorse).toBeCloseTo(0.25, 12);
    // Two of three still pass by majority: the cell's verdict did not flip.
    expect(writeDocs?.flip).toBeNull();
    expect(comparison.verdict).toBe('regression');
    expect(comparison.reason).toBe(
      'regression: fix-bug (claude) 3/3 → 0/3, p = 0.025; 1 case changed within noise (write-docs (claude) 3/3 → 2/3, p = 0.25)',
    );
  });

  it('does not call a cell verdict that flips by chance (3/3 → 1/3, mid-p 0.1) a regression', () => {
    const comparison = compare(cell('claude', 'shaky', 3, 3), cell('claude', 'shaky', 1, 3));
    const [shaky] = comparison.cells;
    expect(shaky?.flip).toBe('passToFail');
    expect(shaky?.change?.verdict).toBe('unchanged');
    expect(shaky?.change?.pWorse).toBeCloseTo(0.1, 12);
    expect(comparison.verdict).toBe('within noise');
    expect(comparison.reason).toBe(
      'within noise: 1 case changed, none significantly (shaky (claude) 3/3 → 1/3, p = 0.1)',
    );
  });

  it('is a regression when the paired test over cases finds head worse though no single cell is', () => {
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    const comparison = compare(
      ids.flatMap((id) => cell('claude', id, 3, 3)),
      ids.flatMap((id) => cell('claude', id, 2, 3)),
    );
    expect(comparison.cells.every((c) => c.change?.verdict === 'unchanged')).toBe(true);
    const [claude] = comparison.agents;
    // Six differences of −1/3: only the two patterns of one sign reach |Σ| = 2, so p = 2/64.
    expect(claude?.paired).toEqual({
      cases: 6,
      meanDifference: expect.closeTo(-1 / 3, 12),
      pValue: 2 / 64,
      method: 'exact',
      significant: true,
    });
    expect(claude?.verdict).toBe('regression');
    expect(claude?.withinNoise).toBe(6);
    expect(claude?.reason).toBe(
      'regression: paired test over 6 cases: head passes 33% less often, p = 0.031; 6 cases changed within noise (c1 (claude) 3/3 → 2/3, p = 0.25; c2 (claude) 3/3 → 2/3, p = 0.25; c3 (claude) 3/3 → 2/3, p = 0.25; and 3 more)',
    );
  });

  it('decides each side’s cells by the pass rule its report records', () => {
    const comparison = buildComparison(
      loaded('base.json', cell('claude', 'a', 3, 3), 'all'),
      loaded('head.json', cell('claude', 'a', 2, 3), 'all'),
    );
    expect(comparison.base.rule).toBe('all');
    expect(comparison.cells[0]?.head.passed).toBe(false);
    expect(comparison.cells[0]?.flip).toBe('passToFail');
  });
});

describe('buildComparison: trials that did not run, errors', () => {
  it('counts trials that did not run apart, never as failures', () => {
    const comparison = compare(cell('claude', 'a', 3, 3), [
      ...cell('claude', 'a', 2, 2),
      ...cell('claude', 'a', 0, 1, { failWith: 'notRun' }),
    ]);
    const [a] = comparison.cells;
    expect(a?.head).toEqual({ trials: 2, passes: 2, notRun: 1, passed: true });
    expect(a?.change?.verdict).toBe('unchanged');
    expect(a?.change?.pWorse).toBe(0.5 * 1);
    expect(comparison.head.errors.notRun).toBe(1);
    expect(comparison.head.totals).toMatchObject({ trials: 2, passes: 2 });
    expect(comparison.verdict).toBe('within noise');
  });

  it('leaves a cell none of whose trials ran on one side uncompared', () => {
    const comparison = compare(cell('claude', 'a', 1, 1), cell('claude', 'a', 0, 1, { failWith: 'notRun' }));
    expect(comparison.cells[0]?.change).toBeNull();
    expect(comparison.cells[0]?.flip).toBeNull();
    expect(comparison.cells[0]?.head.passed).toBeNull();
    expect(comparison.agents[0]?.paired.cases).toBe(0);
    expect(comparison.verdict).toBe('within noise');
    expect(comparison.reason).toBe(
      'within noise: no case ran on both sides; 1 case not compared (no trial ran on one side)',
    );
  });

  it('counts each side’s agent errors, harness errors, timeouts and over-budget trials', () => {
    const comparison = compare(
      [...cell('claude', 'a', 0, 1, { failWith: 'timedOut' }), ...cell('claude', 'b', 1, 1)],
      [
        ...cell('claude', 'a', 0, 2, { failWith: 'agentError' }),
        ...cell('claude', 'b', 0, 1, { failWith: 'harnessError' }),
        ...cell('claude', 'c', 0, 1, { failWith: 'overBudget' }),
      ],
    );
    expect(comparison.base.errors).toEqual({ agentError: 0, harnessError: 0, timedOut: 1, overBudget: 0, notRun: 0 });
    expect(comparison.head.errors).toEqual({ agentError: 2, harnessError: 1, timedOut: 0, overBudget: 1, notRun: 0 });
  });

  it('reads the outcome of rows from reports older than `outcome` by their failed step', () => {
    const old = (row: ReportResult, extra: Partial<ReportResult>): ReportResult => {
      const { outcome: _outcome, trial: _trial, agentName: _agent, ...rest } = { ...row, ...extra };
      return rest as ReportResult;
    };
    const [template] = cell(undefined, 'x', 0, 1);
    if (template === undefined) throw new Error('no row');
    const agentRun = {
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
      durationMs: 1,
      outputTail: '',
      outputBytes: 0,
      outputDroppedBytes: 0,
    };
    const head = [
      old(template, { id: 'timed', failedStep: 'agent', agent: agentRun }),
      old(template, { id: 'crashed', failedStep: 'agent', agent: { ...agentRun, timedOut: false } }),
      old(template, { id: 'setup', failedStep: 'setup' }),
      old(template, { id: 'wrong', failedStep: 'check' }),
      old(template, { id: 'passed', passed: true }),
    ];
    const comparison = compare([], head);
    expect(comparison.head.errors).toEqual({ agentError: 1, harnessError: 1, timedOut: 1, overBudget: 0, notRun: 0 });
    expect(comparison.head.totals).toMatchObject({ trials: 5, passes: 1 });
  });
});

describe('buildComparison: deltas', () => {
  it('sums duration, tokens and cost per side and per agent, the cost marked as an estimate', () => {
    const usage = (inputTokens: number, costUsd: number) =>
      ({ inputTokens, outputTokens: inputTokens / 10, costUsd, costSource: 'agent' }) as const;
    const comparison = compare(
      [...cell('claude', 'a', 2, 2, { durationMs: 1000, usage: usage(100, 0.01) }), ...cell('codex', 'a', 1, 1)],
      [...cell('claude', 'a', 2, 2, { durationMs: 1500, usage: usage(200, 0.03) }), ...cell('codex', 'a', 1, 1)],
    );
    const claude = comparison.agents.find((agent) => agent.name === 'claude');
    expect(claude?.deltas.durationMs).toEqual({ base: 2000, head: 3000, delta: 1000 });
    expect(claude?.deltas.inputTokens).toEqual({ base: 200, head: 400, delta: 200 });
    expect(claude?.deltas.outputTokens).toEqual({ base: 20, head: 40, delta: 20 });
    expect(claude?.deltas.costUsd.delta).toBeCloseTo(0.04, 12);
    expect(claude?.deltas.costIsEstimate).toBe(true);
    // codex reported no usage: its figures are absent, not zero.
    const codex = comparison.agents.find((agent) => agent.name === 'codex');
    expect(codex?.deltas.inputTokens).toEqual({});
    expect(codex?.deltas.costIsEstimate).toBe(false);
    expect(comparison.deltas.durationMs).toEqual({ base: 3000, head: 4000, delta: 1000 });
    expect(comparison.deltas.inputTokens).toEqual({ base: 200, head: 400, delta: 200 });
  });
});

describe('buildComparison: scale', () => {
  it('compares reports of 10,000 rows cell by cell', () => {
    const ids = Array.from({ length: 2500 }, (_, index) => `case-${index}`);
    const base = ids.flatMap((id) => cell('claude', id, 4, 4));
    const head = ids.flatMap((id, index) => cell('claude', id, index === 7 ? 0 : 4, 4));
    const comparison = compare(base, head);
    expect(comparison.cells).toHaveLength(2500);
    expect(comparison.cells.filter((c) => c.change?.verdict === 'regression').map((c) => c.id)).toEqual(['case-7']);
    expect(comparison.verdict).toBe('regression');
  });
});
