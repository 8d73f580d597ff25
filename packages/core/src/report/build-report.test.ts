import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import type { ReportResult } from './model.js';
import { notRunResult } from './not-run.js';
import { result } from './test-support/results.js';

describe('buildReport', () => {
  it('puts the README keys first and in its order', () => {
    const report = buildReport([
      // Keys deliberately scrambled: the report must not depend on how a producer built its objects.
      {
        workspace: '/tmp/gz-bench-1',
        checkResults: [
          { passed: false, message: 'file does not exist: world.txt', path: 'world.txt', kind: 'fileExists' },
        ],
        error: 'file does not exist: world.txt',
        file: 'bench/demo.bench.json',
        durationMs: 892,
        failedStep: 'check',
        outcome: 'failed',
        passed: false,
        suite: 'demo',
        id: 'write-world',
      },
    ]);

    expect(Object.keys(report)).toEqual(['summary', 'results']);
    expect(Object.keys(report.summary)).toEqual(['total', 'passed', 'failed']);
    const [row] = report.results;
    expect(Object.keys(row ?? {})).toEqual([
      'id',
      'passed',
      'durationMs',
      'checkResults',
      'suite',
      'file',
      'outcome',
      'error',
      'failedStep',
      'workspace',
    ]);
    expect(Object.keys(row?.checkResults[0] ?? {})).toEqual(['kind', 'path', 'passed', 'message']);
  });

  it('counts passed and failed results', () => {
    const report = buildReport([
      result({ id: 'a' }),
      result({ id: 'b', passed: false }),
      result({ id: 'c', passed: false }),
    ]);
    expect(report.summary).toEqual({ total: 3, passed: 1, failed: 2 });
  });

  it('sorts by file and keeps the given order within a file', () => {
    const report = buildReport([
      result({ id: 'z-first', file: 'bench/b.bench.json' }),
      result({ id: 'y', file: 'bench/a.bench.json' }),
      result({ id: 'a-last', file: 'bench/b.bench.json' }),
      result({ id: 'x', file: 'bench/a.bench.json' }),
    ]);
    expect(report.results.map((row) => `${row.file}#${row.id}`)).toEqual([
      'bench/a.bench.json#y',
      'bench/a.bench.json#x',
      'bench/b.bench.json#z-first',
      'bench/b.bench.json#a-last',
    ]);
  });

  it('omits undefined fields and orders nested agent keys', () => {
    const report = buildReport([
      result({
        id: 'a',
        error: undefined,
        agent: {
          outputTail: 'done\n',
          durationMs: 10,
          exitCode: 0,
          signal: null,
          timedOut: false,
          outputDroppedBytes: 0,
          outputBytes: 5,
        },
      }),
    ]);
    const row = report.results[0];
    expect(row).not.toHaveProperty('error');
    expect(Object.keys(row?.agent ?? {})).toEqual([
      'exitCode',
      'signal',
      'timedOut',
      'durationMs',
      'outputBytes',
      'outputDroppedBytes',
      'outputTail',
    ]);
  });

  it('keeps fields it does not know after the known ones', () => {
    const withExtra = { ...result({ id: 'a' }), attempt: 2 } as ReportResult;
    const [row] = buildReport([withExtra]).results;
    expect(Object.keys(row ?? {}).at(-1)).toBe('attempt');
    expect(row).toHaveProperty('attempt', 2);
  });

  it('adds meta last, only when given', () => {
    expect(buildReport([])).toEqual({ summary: { total: 0, passed: 0, failed: 0 }, results: [] });
    const report = buildReport([], { vitestVersion: '4.1.12', gzBenchVersion: '0.1.0' });
    expect(Object.keys(report)).toEqual(['summary', 'results', 'meta']);
    expect(Object.keys(report.meta ?? {})).toEqual(['gzBenchVersion', 'vitestVersion']);
  });

  it('does not mutate its input', () => {
    const input = [result({ id: 'b', file: 'b.json', error: undefined }), result({ id: 'a', file: 'a.json' })];
    const snapshot = structuredClone(input);
    buildReport(input);
    expect(input).toEqual(snapshot);
    expect(input[0]).toHaveProperty('error');
  });

  describe('cases that did not run', () => {
    const planned = (id: string, file = 'bench/a.bench.json') => ({
      file,
      suite: 'alpha',
      id,
      checks: [{ kind: 'fileExists' as const, path: 'hello.txt' }],
    });
    const crashed = 'Vitest reported "Worker exited unexpectedly"';

    it('fails them as harness faults, their checks skipped, and says why', () => {
      const [row] = buildReport([notRunResult(planned('b'), crashed)]).results;
      expect(row).toEqual({
        id: 'b',
        passed: false,
        durationMs: 0,
        checkResults: [{ kind: 'fileExists', path: 'hello.txt', passed: false, skipped: true }],
        suite: 'alpha',
        file: 'bench/a.bench.json',
        outcome: 'notRun',
        notRun: true,
        error: 'the case did not finish: Vitest reported "Worker exited unexpectedly"',
        failedStep: 'harness',
      });
      expect(Object.keys(row ?? {}).slice(0, 8)).toEqual([
        'id',
        'passed',
        'durationMs',
        'checkResults',
        'suite',
        'file',
        'outcome',
        'notRun',
      ]);
    });

    it('counts them as failed and as not run, so a gate on failed == 0 fails', () => {
      const report = buildReport([result({ id: 'a' }), notRunResult(planned('b'), crashed)]);
      expect(report.summary).toEqual({ total: 2, passed: 1, failed: 1, notRun: 1 });
    });

    it('lists each file with cases that did not run under errors, after the given errors', () => {
      const report = buildReport(
        [
          result({ id: 'a', file: 'bench/a.bench.json' }),
          notRunResult(planned('b'), crashed),
          notRunResult(planned('c'), crashed),
          notRunResult(planned('z', 'bench/b.bench.json'), 'the run was cancelled'),
        ],
        undefined,
        [{ file: 'bench/bad.bench.json', message: 'bench/bad.bench.json: invalid suite at name: required' }],
      );
      expect(report.errors).toEqual([
        {
          file: 'bench/a.bench.json',
          message: 'bench/a.bench.json: 2 of 3 cases did not finish: Vitest reported "Worker exited unexpectedly"',
        },
        {
          file: 'bench/b.bench.json',
          message: 'bench/b.bench.json: 1 of 1 case did not finish: the run was cancelled',
        },
        { file: 'bench/bad.bench.json', message: 'bench/bad.bench.json: invalid suite at name: required' },
      ]);
    });

    it('leaves the summary as the README shows it when every case ran', () => {
      expect(Object.keys(buildReport([result({ id: 'a' })]).summary)).toEqual(['total', 'passed', 'failed']);
    });
  });
});
