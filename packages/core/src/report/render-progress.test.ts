import { describe, expect, it } from 'vitest';
import type { ReportResult } from './model.js';
import { renderProgressLine } from './render-progress.js';

const result = (overrides: Partial<ReportResult>): ReportResult => ({
  id: 'write-hello',
  suite: 'basics',
  file: 'bench/basics.bench.json',
  passed: true,
  durationMs: 1204,
  checkResults: [],
  ...overrides,
  outcome: overrides.outcome ?? (overrides.passed === false ? 'failed' : 'passed'),
});

describe('renderProgressLine', () => {
  it('names the case, its outcome and its time', () => {
    expect(renderProgressLine(result({}))).toBe('gz-bench PASS  basics > write-hello  1204ms');
  });

  it('adds the first failure on one line, shortened', () => {
    const error = `file does not exist:\n  world.txt ${'x'.repeat(100)}`;
    const line = renderProgressLine(result({ passed: false, durationMs: 12_345, error }));
    expect(line).toBe(`gz-bench FAIL  basics > write-hello  12.3s  file does not exist: world.txt ${'x'.repeat(48)}…`);
  });

  it('names the file too when asked, for suites whose name another file has', () => {
    expect(renderProgressLine(result({}), { file: true })).toBe(
      'gz-bench PASS  bench/basics.bench.json > basics > write-hello  1204ms',
    );
  });

  it('shows a case that did not run as NOT RUN', () => {
    const line = renderProgressLine(
      result({ passed: false, notRun: true, durationMs: 0, error: 'the case did not finish: the run was cancelled' }),
    );
    expect(line).toBe('gz-bench NOT RUN  basics > write-hello  -  the case did not finish: the run was cancelled');
  });
});
