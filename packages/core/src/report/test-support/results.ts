import type { ReportResult } from '../model.js';

/** A passing report row of the `demo` suite with one fileExists check; `overrides` replace its fields. */
export function result(overrides: Partial<ReportResult> & Pick<ReportResult, 'id'>): ReportResult {
  return {
    suite: 'demo',
    file: 'bench/demo.bench.json',
    passed: true,
    durationMs: 1204,
    checkResults: [{ kind: 'fileExists', path: 'hello.txt', passed: true }],
    ...overrides,
    outcome: overrides.outcome ?? (overrides.passed === false ? 'failed' : 'passed'),
  };
}

/** The README's passing row. */
export const writeHello = result({ id: 'write-hello' });

/** The README's failing row: its one check found no world.txt. */
export const writeWorld = result({
  id: 'write-world',
  passed: false,
  durationMs: 892,
  error: 'file does not exist: world.txt',
  failedStep: 'check',
  checkResults: [{ kind: 'fileExists', path: 'world.txt', passed: false, message: 'file does not exist: world.txt' }],
});

/** A second passing row of the same suite, quicker than writeHello. */
export const echoTest = result({ id: 'echo-test', durationMs: 203 });

/** Two passing rows from two suites, the later suite file first, so renderers must label and sort them. */
export const fromTwoSuites = [
  result({ id: 'write-hello', suite: 'smoke', file: 'bench/smoke.bench.json' }),
  result({ id: 'rename-symbol', suite: 'refactor', file: 'bench/refactor.bench.json', durationMs: 45_678 }),
];

/** A row whose agent command timed out after 120 s, so its checks never ran; give it its checkResults. */
export function timedOut(overrides: Partial<ReportResult> & Pick<ReportResult, 'checkResults'>): ReportResult {
  return result({
    id: 'slow-agent',
    passed: false,
    durationMs: 120_034,
    failedStep: 'agent',
    outcome: 'timedOut',
    error: 'agent command timed out after 120s',
    ...overrides,
  });
}

/** Two suite files whose suites share a name and their case ids: only the file tells the rows apart. */
export const sameSuiteTwoFiles = [
  result({ id: 'x', suite: 'smoke', file: 'bench/one.bench.json' }),
  result({ id: 'y', suite: 'smoke', file: 'bench/one.bench.json' }),
  result({
    id: 'x',
    suite: 'smoke',
    file: 'bench/two.bench.json',
    passed: false,
    error: 'file does not exist: x.txt',
    checkResults: [{ kind: 'fileExists', path: 'x.txt', passed: false, message: 'file does not exist: x.txt' }],
  }),
  result({ id: 'y', suite: 'smoke', file: 'bench/two.bench.json' }),
];
