import { locateCases, parseSuiteSource } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { generateInvalidSuiteModule, generateSuiteModule } from './generate-module.js';

const source = `{
  "name": "demo \\"suite\\"",
  "cases": [
    { "id": "write-hello", "prompt": "Create hello.txt", "checks": [] },
    {
      "id": "evil\\");process.exit(1);//",
      "prompt": "x",
      "timeoutSec": 5,
      "checks": [{ "kind": "command", "run": "true" }]
    }
  ]
}
`;

function generate() {
  const suite = parseSuiteSource(source);
  return generateSuiteModule({
    suite,
    file: '/project/bench/demo.bench.json',
    source,
    locations: locateCases(source),
    runtimeId: '/pkg/dist/runtime/index.js',
    dataId: '/project/bench/demo.bench.json?gz-bench-data=v1',
  });
}

describe('generateSuiteModule', () => {
  it('emits one literal test() per case, with user strings only as JSON literals', () => {
    const { code } = generate();
    expect(code.split('\n')).toEqual([
      'import { describe, test, defineSuite } from "/pkg/dist/runtime/index.js";',
      'import data from "/project/bench/demo.bench.json?gz-bench-data=v1";',
      'const suite = defineSuite(data);',
      'describe("demo \\"suite\\"", suite.describeOptions, () => {',
      `  test("write-hello", { timeout: 0 }, (context) => suite.runCell(0, null, null, context));`,
      `  test("evil\\");process.exit(1);//", { timeout: 0 }, (context) => suite.runCell(1, null, null, context));`,
      '});',
      '',
    ]);
  });

  it("emits each case's tags, its suite's first, as a literal array in every agent's block", () => {
    const tagged = `{ "name": "t", "tags": ["bench"], "cases": [
      { "id": "a", "prompt": "p", "tags": ["python", "bench"], "checks": [] },
      { "id": "b", "prompt": "p", "checks": [] }
    ] }`;
    const { code } = generateSuiteModule({
      suite: parseSuiteSource(tagged),
      file: '/project/t.bench.json',
      source: tagged,
      locations: locateCases(tagged),
      runtimeId: '/rt.js',
      agents: ['one'],
      dataId: '/project/t.bench.json?gz-bench-data=v1',
    });
    expect(code.split('\n').slice(4, 8)).toEqual([
      '  describe("one", () => {',
      `    test("a", { timeout: 0, tags: ["bench","python"] }, (context) => suite.runCell(0, "one", null, context));`,
      `    test("b", { timeout: 0, tags: ["bench"] }, (context) => suite.runCell(1, "one", null, context));`,
      '  });',
    ]);
  });

  it('emits a block per (agent, arm) column, and per arm for the one cmd', () => {
    const source = '{ "name": "s", "cases": [{ "id": "a", "prompt": "p", "checks": [] }] }';
    const input = {
      suite: parseSuiteSource(source),
      file: '/project/s.bench.json',
      source,
      locations: locateCases(source),
      runtimeId: '/rt.js',
      arms: ['none', 'v1'],
      dataId: '/project/s.bench.json?gz-bench-data=v1',
    };
    expect(
      generateSuiteModule({ ...input, agents: ['claude-code', 'x/y'] })
        .code.split('\n')
        .slice(4, -2),
    ).toEqual([
      '  describe("claude-code/none", () => {',
      '    test("a", { timeout: 0 }, (context) => suite.runCell(0, "claude-code", "none", context));',
      '  });',
      '  describe("claude-code/v1", () => {',
      '    test("a", { timeout: 0 }, (context) => suite.runCell(0, "claude-code", "v1", context));',
      '  });',
      '  describe("x/y/none", () => {',
      '    test("a", { timeout: 0 }, (context) => suite.runCell(0, "x/y", "none", context));',
      '  });',
      '  describe("x/y/v1", () => {',
      '    test("a", { timeout: 0 }, (context) => suite.runCell(0, "x/y", "v1", context));',
      '  });',
    ]);
    expect(generateSuiteModule(input).code.split('\n').slice(4, -2)).toEqual([
      '  describe("none", () => {',
      '    test("a", { timeout: 0 }, (context) => suite.runCell(0, null, "none", context));',
      '  });',
      '  describe("v1", () => {',
      '    test("a", { timeout: 0 }, (context) => suite.runCell(0, null, "v1", context));',
      '  });',
    ]);
  });

  it('maps each test() line to its case in the suite file', () => {
    const { map } = generate();
    expect(map.sources).toEqual(['/project/bench/demo.bench.json']);
    expect(map.sourcesContent).toEqual([source]);
    // Generated lines 1-3 unmapped; line 4 (describe) to the file start; each test() line to its case's id.
    expect(decodeLines(map.mappings)).toEqual([null, null, null, [0, 0], [3, 12], [5, 12]]);
  });
});

describe('generateInvalidSuiteModule', () => {
  it('throws the validation message and nothing else', async () => {
    const message = 'bench/x.bench.json: invalid suite at cases[0].id: duplicate case id "a"';
    const code = generateInvalidSuiteModule(message);
    const error = await import(`data:text/javascript,${encodeURIComponent(code)}`).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(message);
    expect((error as Error).stack).toBe(`SuiteError: ${message}`);
  });
});

// Decodes "first segment of each line" into absolute [sourceLine, sourceColumn] pairs (0-based).
function decodeLines(mappings: string): Array<[number, number] | null> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let line = 0;
  let column = 0;
  return mappings.split(';').map((segment) => {
    if (segment === '') return null;
    const values: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of segment) {
      const digit = alphabet.indexOf(char);
      value += (digit & 31) << shift;
      if (digit & 32) {
        shift += 5;
      } else {
        values.push(value & 1 ? -(value >> 1) : value >> 1);
        value = 0;
        shift = 0;
      }
    }
    line += values[2] ?? 0;
    column += values[3] ?? 0;
    return [line, column];
  });
}
