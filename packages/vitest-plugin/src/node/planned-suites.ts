import { relative, sep } from 'node:path';
import {
  type Column,
  columnName,
  loadSuite,
  locateCases,
  type PlannedCase,
  type Suite,
  suiteColumns,
} from '@gz-bench/core';
import { type CaseMatcher, narrowCases } from './case-filter.js';

/** How Vitest narrows the tests of one file: `-t`, `file:line`, or the IDE's test ids. */
export interface Selection {
  testNamePattern?: RegExp | undefined;
  testLines?: number[] | undefined;
  testIds?: string[] | undefined;
  /** `--tags-filter`: which cases it keeps is Vitest's to decide. */
  tagsFilter?: string[] | undefined;
}

/** A suite file that a run is about to run, read when the run starts. */
export interface PlannedSuite {
  /** Absolute path: Vitest's module id. */
  moduleId: string;
  /** The file relative to its project's root, as report rows name it. */
  file: string;
  /** The suite, or undefined when it does not load (its test module reports why). */
  suite: Suite | undefined;
  /** Line of each case's `"id"`, as `file:line` filters name cases. */
  idLines: Array<number | undefined>;
  selection: Selection;
}

/** Reads a suite file the run is about to run; never rejects (an invalid suite fails its own module). */
export async function planSuite(
  moduleId: string,
  root: string,
  selection: Selection,
  selectsCase?: CaseMatcher,
): Promise<PlannedSuite> {
  const file = relative(root, moduleId).split(sep).join('/');
  try {
    const loaded = await loadSuite(moduleId);
    // As the plugin narrows the suite's test module (case-filter.ts).
    const { suite, locations } = narrowCases(loaded.suite, locateCases(loaded.source), selectsCase);
    const idLines = locations.map((location) => (location.id ?? location).line);
    return { moduleId, file, suite, idLines, selection };
  } catch {
    return { moduleId, file, suite: undefined, idLines: [], selection };
  }
}

/**
 * The cases of a planned suite that Vitest would run, decided as Vitest decides it once a file is
 * collected (its runner's `interpretTaskModes`): for a file whose worker died before collecting it.
 * Undefined when that cannot be told (test ids, which only a collected file can match; a tags filter).
 */
export function selectedCases(
  planned: PlannedSuite,
  vitestVersion: string,
  agents: readonly string[] = [],
  runArms?: readonly string[],
): Array<{ column: Column; planned: PlannedCase }> | undefined {
  const { suite, selection } = planned;
  if (suite === undefined) return [];
  if (selection.testIds !== undefined || selection.tagsFilter?.length) return undefined;
  // Vitest 4 matches -t against the space-joined full name, Vitest 5 against the `>`-joined one.
  const joiner = Number.parseInt(vitestVersion, 10) >= 5 ? ' > ' : ' ';
  const lines = selection.testLines?.length ? new Set(selection.testLines) : undefined;
  // The describe block maps to line 1: naming it selects every case.
  const everyLine = lines?.has(1) === true;
  return suiteColumns(suite, agents, runArms).flatMap((column) =>
    suite.cases
      .filter((testCase, index) => {
        const line = planned.idLines[index];
        if (lines && !everyLine && (line === undefined || !lines.has(line))) return false;
        const pattern = selection.testNamePattern;
        const name = columnName(column);
        const fullName = [suite.name, ...(name === undefined ? [] : [name]), testCase.id].join(joiner);
        return pattern === undefined || fullName.match(pattern) !== null;
      })
      .map((testCase) => ({
        column,
        planned: { file: planned.file, suite: suite.name, id: testCase.id, checks: testCase.checks },
      })),
  );
}
