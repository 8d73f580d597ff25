import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../report/model.js';
import { armVerdicts } from './arm-verdicts.js';

function row(arm: string, passed: boolean, extra: Partial<ReportResult> = {}): ReportResult {
  return {
    file: 's.bench.json',
    suite: 's',
    id: 'fill',
    agentName: 'claude-code',
    arm,
    passed,
    outcome: passed ? 'passed' : 'failed',
    durationMs: 400,
    checkResults: [],
    ...extra,
  };
}
const usage = (inputTokens: number, outputTokens: number, turns?: number) => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 1,
  outputBytes: 0,
  outputDroppedBytes: 0,
  outputTail: '',
  usage: { inputTokens, outputTokens, ...(turns !== undefined && { turns }) },
});

describe('armVerdicts', () => {
  it('says an arm helps when its interval against the baseline lies above 0, with trigger rate and deltas', () => {
    const v1 = (used: boolean) =>
      row('v1', true, { durationMs: 1000, skills: [{ name: 'pdf', used }], agent: usage(100, 10, 4) });
    const rows = [
      v1(true),
      v1(true),
      v1(false),
      ...[1, 2, 3].map(() => row('none', false, { agent: usage(200, 20) })),
      // Not run: counts for nothing.
      row('none', true, { notRun: true }),
    ];
    expect(armVerdicts(rows)).toEqual([
      {
        agentName: 'claude-code',
        arm: 'v1',
        baseline: 'none',
        pairedCases: 1,
        trials: 3,
        baselineTrials: 3,
        passRate: 1,
        baselinePassRate: 0,
        difference: 1,
        // 3/3 against 0/3 on one case (stats/paired-difference.test.ts): [0.205923, 1].
        interval: { low: expect.closeTo(0.205923, 5), high: 1 },
        effect: 'helps',
        trigger: { used: 2, trials: 3, rate: 2 / 3 },
        // 110 − 220 tokens, 1000 − 400 ms; turns only on one side.
        deltas: { tokens: -110, durationMs: 600 },
      },
    ]);
  });

  it('finds no evidence where both arms pass alike, and compares against a named baseline arm', () => {
    const rows = ['v1', 'v2'].flatMap((arm) => [row(arm, true), row(arm, false), row(arm, false)]);
    const [verdict] = armVerdicts(rows, 'v1');
    expect(verdict).toMatchObject({ arm: 'v2', baseline: 'v1', difference: 0, effect: 'noEvidence' });
    expect(verdict?.trigger).toBeUndefined();
    expect(armVerdicts(rows)).toMatchObject([{ arm: 'v2', baseline: 'v1' }]);
  });

  it('says an arm hurts when its interval lies below 0, per agent', () => {
    const rows = [
      ...[1, 2, 3].map(() => row('v1', false, { agentName: 'codex' })),
      ...[1, 2, 3].map(() => row('none', true, { agentName: 'codex' })),
      row('v1', true),
      row('none', true),
    ];
    expect(armVerdicts(rows).map(({ agentName, effect }) => ({ agentName, effect }))).toEqual([
      { agentName: 'codex', effect: 'hurts' },
      { agentName: 'claude-code', effect: 'noEvidence' },
    ]);
  });

  it('has nothing to say without arms', () => {
    expect(armVerdicts([{ ...row('x', true), arm: undefined }])).toEqual([]);
  });
});
