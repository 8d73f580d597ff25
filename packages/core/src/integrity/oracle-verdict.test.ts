import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../report/model.js';
import { oracleProblems } from './oracle-verdict.js';

function row(id: string, agentName: string, passed: boolean, extra: Partial<ReportResult> = {}): ReportResult {
  return {
    suite: 's',
    file: 's.bench.json',
    id,
    agentName,
    passed,
    outcome: passed ? 'passed' : 'failed',
    durationMs: 1,
    checkResults: [],
    ...(!passed && { error: `${id} failed`, failedStep: 'check' as const }),
    ...extra,
  };
}

const file = 's.bench.json';

describe('oracleProblems', () => {
  it('names each case that a no-op passes, its solution fails, has no solution or did not run', () => {
    const cases = ['good', 'lax', 'wrong', 'unsolved', 'both', 'lost', 'broken'].map((id) => ({
      file,
      id,
      hasSolution: id !== 'unsolved',
    }));
    const results = [
      row('good', 'no-op', false),
      row('good', 'solution', true),
      row('lax', 'no-op', true),
      row('lax', 'solution', true),
      row('wrong', 'no-op', false),
      row('wrong', 'solution', false),
      row('unsolved', 'no-op', false),
      row('unsolved', 'solution', false),
      row('both', 'no-op', true),
      row('both', 'solution', false),
      row('lost', 'no-op', false, { notRun: true, error: 'the worker died' }),
      row('broken', 'no-op', false, { failedStep: 'setup', error: 'setup command 1 exited with 1: make' }),
      row('broken', 'solution', false, { failedStep: 'setup', error: 'setup command 1 exited with 1: make' }),
    ];
    expect(oracleProblems(cases, results)).toEqual([
      { file, id: 'lax', problems: ['passes with a no-op agent'] },
      { file, id: 'wrong', problems: ['fails with its own solution: wrong failed'] },
      { file, id: 'unsolved', problems: ['no solution'] },
      { file, id: 'both', problems: ['passes with a no-op agent', 'fails with its own solution: both failed'] },
      { file, id: 'lost', problems: ['did not run: the worker died', 'did not run: no result'] },
      {
        file,
        id: 'broken',
        problems: [
          'fails with a no-op agent before its checks: setup command 1 exited with 1: make',
          'fails with its own solution: setup command 1 exited with 1: make',
        ],
      },
    ]);
  });

  it('tells cases of the same id in different files apart', () => {
    const cases = [
      { file: 'a.json', id: 'c', hasSolution: true },
      { file: 'b.json', id: 'c', hasSolution: true },
    ];
    const results = [
      { ...row('c', 'no-op', false), file: 'a.json' },
      { ...row('c', 'solution', true), file: 'a.json' },
      { ...row('c', 'no-op', true), file: 'b.json' },
      { ...row('c', 'solution', true), file: 'b.json' },
    ];
    expect(oracleProblems(cases, results)).toEqual([
      { file: 'b.json', id: 'c', problems: ['passes with a no-op agent'] },
    ]);
  });
});
