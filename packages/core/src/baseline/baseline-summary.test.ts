import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../report/model.js';
import { renderBaselineSummary, summarizeBaseline } from './baseline-summary.js';
import type { BaselineJudgement } from './judge-cell.js';

function row(
  id: string,
  passed: boolean,
  baseline: BaselineJudgement,
  extra: Partial<ReportResult> = {},
): ReportResult {
  return {
    id,
    passed,
    outcome: passed ? 'passed' : 'failed',
    durationMs: 1,
    checkResults: [],
    suite: 's',
    file: 'bench/s.bench.json',
    baseline,
    ...extra,
  };
}

describe('summarizeBaseline', () => {
  it('counts cells, not trials, and lists what moved', () => {
    const regression = { verdict: 'regression', passes: 3, trials: 3, p: 0.025 } as const;
    const rows = [
      ...[1, 2, 3].map((trial) => row('drop', false, regression, { agentName: 'mine', trial })),
      row('known', false, { verdict: 'knownFailure', passes: 0, trials: 1 }),
      row('other-known', false, { verdict: 'knownFailure', passes: 0, trials: 1 }),
      row('better', true, { verdict: 'improvement', passes: 0, trials: 1 }),
      row('fresh', true, { verdict: 'new' }),
    ];
    const summary = summarizeBaseline(rows, [{ file: 'bench/s.bench.baseline.json', caseId: 'old' }]);
    expect(summary).toMatchObject({ knownFailures: 2, regressions: 1, improvements: 1, same: 0, new: 1, stale: true });
    expect(renderBaselineSummary(summary as NonNullable<typeof summary>)).toEqual([
      'baseline: 2 known failures, 1 regression, 1 improvement, 1 new (not in the baseline) (baseline stale: run with -u)',
      'regression bench/s.bench.json: "mine > drop" 3/3 → 0/3 (p = 0.025)',
      'improvement bench/s.bench.json: "better" 0/1 → 1/1',
      'obsolete baseline entry bench/s.bench.baseline.json: "old" (removed by -u)',
    ]);
  });

  it('is absent when no suite has a baseline, and not stale once updated', () => {
    expect(summarizeBaseline([], [])).toBeUndefined();
    const rows = [row('better', true, { verdict: 'improvement', passes: 0, trials: 1 })];
    const updated = summarizeBaseline(rows, [], ['bench/s.bench.baseline.json']);
    expect(updated?.stale).toBe(false);
    expect(renderBaselineSummary(updated as NonNullable<typeof updated>)).toEqual([
      'baseline: 1 improvement (accepted by -u)',
      'improvement bench/s.bench.json: "better" 0/1 → 1/1',
      'baseline written: bench/s.bench.baseline.json',
    ]);
  });
});
