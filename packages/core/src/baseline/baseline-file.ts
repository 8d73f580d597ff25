import { basename } from 'node:path';
import type { Outcome } from '../report/model.js';
import type { CellRule } from '../stats/cell-rule.js';

/** The expected result of one (agent, case) cell: how many of its trials passed. */
export interface BaselineEntry {
  passes: number;
  trials: number;
  /** How the one trial ended, when the cell has one: `failed` and `agentError` read differently in review. */
  outcome?: Outcome;
}

/** Entries by case id. */
export type BaselineCases = Record<string, BaselineEntry>;

/**
 * A suite's committed baseline: the cells of the run's one `cmd` under `cases`, those of named agents
 * under `agents`. Nothing that changes from run to run without the result changing (durations,
 * tokens), so an update diffs only where a result moved.
 */
export interface Baseline {
  /** The rule that decided whether each cell passed when it was written; it tells known failures. */
  passRule: CellRule;
  cases: BaselineCases;
  agents: Record<string, BaselineCases>;
}

/** The format's version, written into every file; a file of another version is refused. */
export const BASELINE_VERSION = 1;

const SUFFIX = '.baseline.json';

/** The baseline file beside a suite file: `bench/x.bench.json` → `bench/x.bench.baseline.json`. */
export function baselinePathFor(suiteFile: string): string {
  const stem = suiteFile.endsWith('.json') ? suiteFile.slice(0, -'.json'.length) : suiteFile;
  return `${stem}${SUFFIX}`;
}

/** Whether a path names a baseline file (by its name), which is never a suite. */
export function isBaselinePath(file: string): boolean {
  return basename(file).endsWith(SUFFIX);
}

/** The suite file a baseline file belongs to: `x.bench.baseline.json` → `x.bench.json`. */
export function suitePathOf(baselineFile: string): string {
  return `${baselineFile.slice(0, -SUFFIX.length)}.json`;
}

/** An empty baseline, judged by `passRule`. */
export function emptyBaseline(passRule: CellRule): Baseline {
  return { passRule, cases: {}, agents: {} };
}

/** The entry of a cell, if the baseline has one. */
export function baselineEntry(
  baseline: Baseline,
  agentName: string | undefined,
  caseId: string,
): BaselineEntry | undefined {
  const cases = agentName === undefined ? baseline.cases : baseline.agents[agentName];
  return cases !== undefined && Object.hasOwn(cases, caseId) ? cases[caseId] : undefined;
}

/**
 * The file's text: pretty, keys sorted (agents and case ids by code unit, so any locale sorts them
 * alike), one trailing newline: the same results always give the same bytes.
 */
export function renderBaseline(baseline: Baseline, suiteFile: string): string {
  const agents = Object.fromEntries(
    sortedKeys(baseline.agents)
      .map((name) => [name, sortCases(baseline.agents[name] ?? {})] as const)
      .filter(([, cases]) => Object.keys(cases).length > 0),
  );
  const document = {
    $comment: `gz-bench baseline of ${suiteFile}: the expected result of each case. Written by vitest run -u or gz-bench run --update; review it like a snapshot.`,
    gzBenchBaseline: BASELINE_VERSION,
    passRule: baseline.passRule,
    ...(Object.keys(baseline.cases).length > 0 && { cases: sortCases(baseline.cases) }),
    ...(Object.keys(agents).length > 0 && { agents }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function sortCases(cases: BaselineCases): BaselineCases {
  return Object.fromEntries(
    sortedKeys(cases).map((id) => {
      const entry = cases[id] as BaselineEntry;
      const ordered: BaselineEntry = { passes: entry.passes, trials: entry.trials };
      if (entry.trials === 1 && entry.outcome !== undefined) ordered.outcome = entry.outcome;
      return [id, ordered];
    }),
  );
}

function sortedKeys(record: object): string[] {
  return Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Sets a key as an own property, whatever it is: a case id may be `__proto__`, which `=` would not store. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
