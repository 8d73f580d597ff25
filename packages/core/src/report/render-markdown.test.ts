import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderMarkdown } from './render-markdown.js';
import { echoTest, fromTwoSuites, result, timedOut, writeHello, writeWorld } from './test-support/results.js';

describe('renderMarkdown', () => {
  it('renders all passing cases', () => {
    expect(renderMarkdown(buildReport([writeHello, echoTest]))).toMatchInlineSnapshot(`
        "| id | result | checks | time | first failure |
        | --- | --- | --- | --- | --- |
        | write-hello | PASS | 1/1 | 1204ms |  |
        | echo-test | PASS | 1/1 | 203ms |  |

        2 cases: 2 passed, 0 failed
        "
      `);
  });

  it('keeps a long multi-line error with pipes and markup inside its cell', () => {
    const report = buildReport([
      writeWorld,
      result({
        id: 'fix_tests',
        passed: false,
        durationMs: 12_345,
        failedStep: 'check',
        error:
          'command exited with code 1:\n  expected <div> | got *3* \\| `x`\n  at add (src/add.ts:3:9)\n  at run (src/run.ts:10:1)',
        checkResults: [{ kind: 'command', run: 'npm test', passed: false, exitCode: 1 }],
      }),
    ]);
    expect(renderMarkdown(report)).toMatchInlineSnapshot(`
      "| id | result | checks | time | first failure |
      | --- | --- | --- | --- | --- |
      | write-world | FAIL | 0/1 | 892ms | file does not exist: world.txt |
      | fix\\_tests | FAIL | 0/1 | 12.3s | command exited with code 1: expected \\<div\\> \\| got \\*3\\* \\\\\\| \\\`x\\\` at add (src/add.ts:… |

      2 cases: 0 passed, 2 failed
      "
    `);
  });

  it('shows a timed-out case', () => {
    const report = buildReport([
      timedOut({ checkResults: [{ kind: 'fileExists', path: 'hello.txt', passed: false, skipped: true }] }),
    ]);
    expect(renderMarkdown(report)).toMatchInlineSnapshot(`
      "| id | result | checks | time | first failure |
      | --- | --- | --- | --- | --- |
      | slow-agent | TIMEOUT | 0/1 | 120.0s | agent command timed out after 120s |

      1 case: 0 passed, 1 failed
      "
    `);
  });

  it('names cases `suite > id` when results come from several suites', () => {
    const report = buildReport(fromTwoSuites);
    expect(renderMarkdown(report)).toMatchInlineSnapshot(`
      "| id | result | checks | time | first failure |
      | --- | --- | --- | --- | --- |
      | refactor \\> rename-symbol | PASS | 1/1 | 45.7s |  |
      | smoke \\> write-hello | PASS | 1/1 | 1204ms |  |

      2 cases: 2 passed, 0 failed
      "
    `);
  });

  it('leaves kept workspaces to the table (local paths mean nothing on a CI summary page)', () => {
    const report = buildReport([{ ...writeHello, workspace: '/tmp/gz-bench-write-hello-abc123' }]);
    expect(renderMarkdown(report)).not.toContain('/tmp/');
  });

  it('says so when no case ran', () => {
    expect(renderMarkdown(buildReport([]))).toBe('no cases ran\n');
  });
});
