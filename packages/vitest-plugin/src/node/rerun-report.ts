import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  columnName,
  EarlierReportError,
  groupEarlierRows,
  loadSuite,
  parseEarlierReport,
  type ReportResult,
  resumeCellKey,
  suiteColumns,
  unmatchedEarlierRows,
} from '@gz-bench/core';
import { glob } from 'tinyglobby';
import type { WorkerOptions } from '../shared/options.js';

/**
 * Reads and validates the earlier report of a resumed run (`onlyFailed`, `--only-failed`): a file that
 * is missing, unreadable, not JSON or not a gz-bench report is an EarlierReportError that says which.
 */
export async function readEarlierReport(path: string, displayPath: string): Promise<ReportResult[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new EarlierReportError(
      `cannot read the earlier report ${displayPath} (${code}); name a report a gz-bench run wrote`,
    );
  }
  return parseEarlierReport(text, displayPath);
}

/** The earlier rows as workers look them up: by absolute suite file, then by cell key. */
export function resumeForWorkers(rows: readonly ReportResult[], root: string): NonNullable<WorkerOptions['resume']> {
  const byFile: NonNullable<WorkerOptions['resume']> = {};
  for (const [file, cells] of groupEarlierRows(rows)) byFile[resolve(root, file)] = Object.fromEntries(cells);
  return byFile;
}

/** What a resumed run plans, to tell which earlier rows no longer match anything. */
export interface RerunScope {
  root: string;
  include: string[];
  exclude: string[];
  /** The run's agent names; none for the one `cmd`. */
  agents: readonly string[];
  /** The run's own arms, which replace the suites'; undefined where the suites name theirs. */
  arms?: readonly string[] | undefined;
  trials: number;
}

/**
 * Reads the earlier report and tells which of its rows this run will not carry over, one line per
 * group (rows of suite files it does not have, of cases or agents it no longer has, of trials beyond
 * its count). A report none of whose rows match (another run's) is an EarlierReportError: resuming it
 * would only run everything again under a name that says otherwise.
 */
export async function readEarlierRun(
  path: string,
  displayPath: string,
  scope: RerunScope,
): Promise<{ rows: ReportResult[]; warnings: string[] }> {
  const rows = await readEarlierReport(path, displayPath);
  const { warnings, matched } = await unmatchedRows(rows, scope);
  if (rows.length > 0 && matched === 0) {
    throw new EarlierReportError(
      `${displayPath} holds no result of this run's suite files, cases and agents; --only-failed takes the report of an earlier run of the same suites`,
    );
  }
  return { rows, warnings };
}

/** Suite files that do not load are left to their own module's error. */
async function unmatchedRows(
  rows: readonly ReportResult[],
  scope: RerunScope,
): Promise<{ warnings: string[]; matched: number }> {
  const files = await glob(scope.include, { cwd: scope.root, ignore: scope.exclude, dot: true, onlyFiles: true });
  const planned = await Promise.all(
    files.map(async (file) => {
      const suite = await loadSuite(resolve(scope.root, file)).then(
        (loaded) => loaded.suite,
        () => undefined,
      );
      const columns = suiteColumns(suite, scope.agents, scope.arms);
      const cellKeys = columns.flatMap(
        (column) => suite?.cases.map((c) => resumeCellKey(columnName(column), c.id)) ?? [],
      );
      return { file, cellKeys, loads: suite !== undefined };
    }),
  );
  const broken = new Set(planned.filter((entry) => !entry.loads).map((entry) => entry.file));
  const earlier = groupEarlierRows(rows.filter((row) => !broken.has(row.file)));
  const keys = new Map(planned.map((entry) => [entry.file, new Set(entry.cellKeys)]));
  const matches = (row: ReportResult) =>
    broken.has(row.file) ||
    ((row.trial ?? 1) <= scope.trials && keys.get(row.file)?.has(resumeCellKey(columnName(row), row.id)) === true);
  return { warnings: unmatchedEarlierRows(earlier, planned, scope.trials), matched: rows.filter(matches).length };
}

/**
 * A resumed run's rows: a trial that did not run this time (the resume was itself interrupted, or the
 * cell's test never started) keeps its earlier passing row, so that nothing that finished once is
 * lost or has to run again.
 */
export function withEarlierPasses(rows: readonly ReportResult[], earlier: readonly ReportResult[]): ReportResult[] {
  if (earlier.length === 0) return [...rows];
  const key = (row: ReportResult) => JSON.stringify([row.file, columnName(row) ?? null, row.id, row.trial ?? 1]);
  const passes = new Map(earlier.filter((row) => row.passed && row.outcome === 'passed').map((row) => [key(row), row]));
  return rows.map((row) => (row.notRun ? (passes.get(key(row)) ?? row) : row));
}
