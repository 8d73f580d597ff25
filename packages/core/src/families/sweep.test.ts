import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../report/model.js';
import { renderSweep, renderSweepMarkdown } from './render-sweep.js';
import { buildSweep } from './sweep.js';
import type { FamilyReport } from './types.js';

function row(family: Partial<FamilyReport> & { size: number }, extra: Partial<ReportResult> = {}): ReportResult {
  return {
    id: `chase size ${family.size}`,
    passed: true,
    outcome: 'passed',
    durationMs: 1,
    checkResults: [],
    suite: 's',
    file: 's.bench.json',
    family: {
      id: 'chase',
      kind: 'pointerChase',
      seed: 7,
      calls: family.size,
      idealCalls: family.size,
      maxConcurrency: 1,
      ...family,
    },
    ...extra,
  };
}

describe('the sweep', () => {
  it('has one row per (family, size, agent), sizes ascending, counts the median over trials', () => {
    const results = [
      row({ size: 25 }, { agentName: 'a' }),
      row({ size: 10, calls: 10 }, { agentName: 'a', trial: 1 }),
      row({ size: 10, calls: 14 }, { agentName: 'a', trial: 2, passed: false, outcome: 'failed' }),
      row({ size: 10, calls: 30 }, { agentName: 'a', trial: 3 }),
      row(
        { size: 10 },
        {
          agentName: 'b',
          agent: {
            exitCode: 0,
            signal: null,
            timedOut: false,
            durationMs: 1,
            outputTail: '',
            outputBytes: 0,
            outputDroppedBytes: 0,
            usage: { turns: 12 },
          },
        },
      ),
      { ...row({ size: 1 }), family: undefined, id: 'literal' },
    ];
    const sweep = buildSweep(results);
    expect(sweep.map((r) => [r.size, r.agent, r.calls, r.passes, r.trials, r.turns])).toEqual([
      [10, 'a', 14, 2, 3, undefined],
      [10, 'b', 10, 1, 1, 12],
      [25, 'a', 25, 1, 1, undefined],
    ]);
  });

  it('prints as a table and as Markdown rows, faults as recovered/met', () => {
    const results = [
      row({ size: 3, kind: 'faultRecovery', id: 'faults', calls: 12, idealCalls: 12, faults: 3, faultsRecovered: 3 }),
      row({ size: 4, kind: 'parallelLookup', id: 'look', maxConcurrency: 4, allRetrieved: false }, { passed: false }),
    ];
    const sweep = buildSweep(results);
    expect(renderSweep(sweep)).toBe(
      [
        'gz-bench sweep (calls, turns and max concurrency are medians over trials; faults are recovered/met)',
        'family  size  agent  calls  ideal  turns  max conc.  faults  result',
        'faults     3  -         12     12      -          1     3/3  pass',
        'look       4  -          4      4      -          4       -  FAIL (values missing)',
        '',
      ].join('\n'),
    );
    expect(renderSweepMarkdown(sweep)).toContain(
      '| family | size | agent | calls | ideal | turns | max conc. | faults | result |\n| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |\n| faults | 3 | - | 12 | 12 | - | 1 | 3/3 | pass |',
    );
  });
});
