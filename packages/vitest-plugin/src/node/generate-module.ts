import { type Baseline, type CaseLocation, caseTags, columnName, type Suite, suiteColumns } from '@gz-bench/core';
import type { ModuleBaseline } from '../runtime/define-suite.js';
import { type LineMapping, lineSourceMap, type SourceMap } from './source-map.js';

/** What the load hook needs to turn a suite into a test module. */
export interface GenerateModuleInput {
  suite: Suite;
  /** Absolute path of the suite file. */
  file: string;
  /** Text of the suite file, for the source map. */
  source: string;
  locations: CaseLocation[];
  /** Import specifier of the worker runtime. */
  runtimeId: string;
  /** Names of the run's agents, each a describe block of every case; none for the run's one `cmd`. */
  agents?: readonly string[];
  /** Names of the suite's arms: each agent runs every case once per arm, under `describe("agent/arm")`. */
  arms?: readonly string[];
  /** Import specifier of the suite's data module (suite-data-module.ts). */
  dataId: string;
}

/**
 * Generates a thin module: one literal `test()` per case — per (column, case) under a describe block
 * of each column's name (`agent`, `agent/arm` or `arm`), when the run names agents or arms — so that static parsers (the VS Code extension,
 * `vitest list --static-parse`) see every test. A cell's trials run inside its one test. User
 * strings only ever enter the code through JSON.stringify. The suite's data comes from its own module
 * (`dataId`, see suite-data-module.ts).
 */
export function generateSuiteModule(input: GenerateModuleInput): { code: string; map: SourceMap } {
  const lines = [
    `import { describe, test, defineSuite } from ${JSON.stringify(input.runtimeId)};`,
    `import data from ${JSON.stringify(input.dataId)};`,
    'const suite = defineSuite(data);',
    `describe(${JSON.stringify(input.suite.name)}, suite.describeOptions, () => {`,
  ];
  const mappings: LineMapping[] = [{ generatedLine: 4, sourceLine: 1, sourceColumn: 0 }];
  const agents = input.agents ?? [];
  const addCases = (indent: string, call: (index: number) => string) => {
    input.suite.cases.forEach((testCase, index) => {
      // No Vitest timeout: it would count the wait for a slot of the run. The runtime bounds each
      // trial from the moment it has its slot (runtime/case-budget.ts).
      // Tags as a literal array, so that static parsers (`--static-parse --tags-filter`) see them.
      const tags = caseTags(input.suite, testCase);
      const options = tags.length > 0 ? `{ timeout: 0, tags: ${JSON.stringify(tags)} }` : '{ timeout: 0 }';
      lines.push(`${indent}test(${JSON.stringify(testCase.id)}, ${options}, (context) => ${call(index)});`);
      // The case's id is where people point when they mean the case (`vitest run x.bench.json:12`, IDE links).
      const location = input.locations[index];
      const target = location?.id ?? location;
      if (target) mappings.push({ generatedLine: lines.length, sourceLine: target.line, sourceColumn: target.column });
    });
  };
  const columns = suiteColumns(undefined, agents, input.arms ?? []);
  for (const column of columns) {
    const name = columnName(column);
    const call = (index: number) =>
      `suite.runCell(${index}, ${JSON.stringify(column.agentName ?? null)}, ${JSON.stringify(column.arm ?? null)}, context)`;
    if (name === undefined) {
      addCases('  ', call);
      continue;
    }
    lines.push(`  describe(${JSON.stringify(name)}, () => {`);
    addCases('    ', call);
    lines.push('  });');
  }
  lines.push('});', '');
  return { code: lines.join('\n'), map: lineSourceMap(input.file, input.source, mappings) };
}

/**
 * The baseline as a list, for the suite's data module: as keys of an object, a case id `__proto__`
 * could set a prototype instead of a key, while in a list every id stays the plain string it is.
 */
export function moduleBaseline(baseline: Baseline): ModuleBaseline {
  const cells: ModuleBaseline['cells'] = Object.entries(baseline.cases).map(([caseId, entry]) => ({ caseId, entry }));
  for (const [agentName, cases] of Object.entries(baseline.agents)) {
    for (const [caseId, entry] of Object.entries(cases)) cells.push({ agentName, caseId, entry });
  }
  return { passRule: baseline.passRule, cells };
}

/** Generates a module that fails its file with the suite's validation message, and nothing else. */
export function generateInvalidSuiteModule(message: string): string {
  return [
    `const error = new Error(${JSON.stringify(message)});`,
    `error.name = "SuiteError";`,
    // A stack of the message alone: the user needs the file and path it names, not our frames.
    `error.stack = ${JSON.stringify(`SuiteError: ${message}`)};`,
    'throw error;',
    '',
  ].join('\n');
}
