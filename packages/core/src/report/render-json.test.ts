import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderJson } from './render-json.js';
import { writeHello } from './test-support/results.js';

describe('renderJson', () => {
  const report = buildReport([writeHello], { gzBenchVersion: '0.1.0' });

  it('round-trips through JSON.parse', () => {
    expect(JSON.parse(renderJson(report))).toEqual(report);
  });

  it('matches the README layout', () => {
    expect(renderJson(report)).toMatchInlineSnapshot(`
      "{
        "summary": {
          "total": 1,
          "passed": 1,
          "failed": 0
        },
        "results": [
          {
            "id": "write-hello",
            "passed": true,
            "durationMs": 1204,
            "checkResults": [
              {
                "kind": "fileExists",
                "path": "hello.txt",
                "passed": true
              }
            ],
            "suite": "demo",
            "file": "bench/demo.bench.json",
            "outcome": "passed"
          }
        ],
        "meta": {
          "gzBenchVersion": "0.1.0"
        }
      }
      "
    `);
  });
});
