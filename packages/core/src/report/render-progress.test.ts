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
});
