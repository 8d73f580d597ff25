import { describe, expect, it } from 'vitest';
import { result } from '../report/test-support/results.js';
import { EarlierReportError, parseEarlierReport } from './earlier-report.js';
import { groupEarlierRows, planResumeCell, resumeCellKey, unmatchedEarlierRows } from './resume-plan.js';

const trial = (n: number, outcome: 'passed' | 'failed' | 'agentError' | 'notRun', agentName = 'mine') =>
  result({ id: 'fix', agentName, trial: n, passed: outcome === 'passed', outcome });

describe('planResumeCell', () => {
  it('keeps the passing trials and runs every other one again', () => {
    const rows = [
      trial(1, 'passed'),
      trial(2, 'failed'),
      trial(3, 'agentError'),
      trial(4, 'notRun'),
      trial(5, 'passed'),
    ];
    const plan = planResumeCell(rows, 5);
    expect(plan.rerun).toEqual([2, 3, 4]);
    expect(plan.kept.map((row) => row.trial)).toEqual([1, 5]);
  });

  it('runs trials the earlier report has no row of, and a whole cell it does not have', () => {
    expect(planResumeCell([trial(1, 'passed')], 3).rerun).toEqual([2, 3]);
    expect(planResumeCell(undefined, 2)).toEqual({ rerun: [1, 2], kept: [] });
  });

  it('reads a row without a trial number as trial 1 of a one-trial run', () => {
    const row = result({ id: 'fix' });
    expect(planResumeCell([row], 1)).toEqual({ rerun: [], kept: [row] });
    expect(planResumeCell([result({ id: 'fix', passed: false })], 1).rerun).toEqual([1]);
  });
});

describe('unmatchedEarlierRows', () => {
  const earlier = groupEarlierRows([
    trial(1, 'passed'),
    trial(3, 'passed'),
    trial(1, 'passed', 'gone-agent'),
    result({ id: 'x', file: 'bench/other.bench.json' }),
  ]);

  it('names the files, cells and trials of the earlier report that this run does not plan', () => {
    const planned = [{ file: 'bench/demo.bench.json', cellKeys: [resumeCellKey('mine', 'fix')] }];
    expect(unmatchedEarlierRows(earlier, planned, 2)).toEqual([
      'bench/demo.bench.json: agent "gone-agent" > case "fix" of the earlier report no longer in the suite or run; left out',
      "bench/demo.bench.json: 1 earlier row is of a trial beyond this run's 2; left out",
      "the earlier report's rows of bench/other.bench.json match no suite file of this run; they are left out",
    ]);
  });

  it('says nothing when every row matches', () => {
    const planned = [
      { file: 'bench/demo.bench.json', cellKeys: [resumeCellKey('mine', 'fix'), resumeCellKey('gone-agent', 'fix')] },
      { file: 'bench/other.bench.json', cellKeys: [resumeCellKey(undefined, 'x')] },
    ];
    expect(unmatchedEarlierRows(earlier, planned, 3)).toEqual([]);
  });
});

describe('parseEarlierReport', () => {
  it('returns the rows of a report, every field kept', () => {
    const row = { ...trial(2, 'failed'), futureField: 1 };
    const text = JSON.stringify({ summary: { total: 1, passed: 0, failed: 1 }, results: [row] });
    expect(parseEarlierReport(text, 'r.json')).toEqual([row]);
  });

  it('refuses a file that is not JSON, and says what it expects', () => {
    expect(() => parseEarlierReport('{"summary": ', 'out/r.json')).toThrow(
      new EarlierReportError(
        'out/r.json is not JSON; --only-failed takes a report a gz-bench run wrote (its report file, or --json output)',
      ),
    );
  });

  it('refuses JSON that is not a gz-bench report, and says where', () => {
    const text = JSON.stringify({ summary: { total: 1 }, results: [{ id: 'a', suite: 's', file: 'f' }] });
    expect(() => parseEarlierReport(text, 'r.json')).toThrow(
      /^r\.json is not a gz-bench report \(.+ at results\.0\.passed\)/,
    );
    expect(() => parseEarlierReport('[]', 'r.json')).toThrow(EarlierReportError);
  });
});
