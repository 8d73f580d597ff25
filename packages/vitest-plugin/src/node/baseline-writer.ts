import { readFile, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import {
  type Baseline,
  type BaselineSummary,
  baselinePathFor,
  type CellRule,
  obsoleteEntries,
  parseBaseline,
  type RanCell,
  type ReportResult,
  renderBaseline,
  updateBaseline,
} from '@gz-bench/core';

/** One suite file's latest cells, as the reporter keeps them. */
export interface SuiteCells {
  /** Suite file relative to the Vitest root. */
  file: string;
  /** The `[agent, case id]` of every test the suite has now, whether it ran or not. */
  cells: ReadonlyArray<readonly [string | undefined, string]>;
  /** The rows of each cell that has results, by the same index as `cells`. */
  rows: ReadonlyArray<readonly ReportResult[] | undefined>;
}

/** What the run's baselines came to: obsolete entries, and the files an update wrote. */
export interface BaselineOutcome {
  obsolete: BaselineSummary['obsolete'];
  /** Present on an update run: the baseline files it wrote (unchanged ones are not rewritten). */
  written?: string[];
}

/**
 * Finds each suite's obsolete baseline entries and, on an update, writes its baseline file: cells
 * that ran take this run's result, the others keep theirs, obsolete entries go. A suite that did not
 * load (no tests) is left alone, its baseline with it. Files whose text would not change are not
 * touched, so an update is a diff only where a result moved.
 */
export async function settleBaselines(
  suites: readonly SuiteCells[],
  options: { root: string; update: boolean; passRule: CellRule },
): Promise<BaselineOutcome> {
  const obsolete: BaselineSummary['obsolete'] = [];
  const written: string[] = [];
  for (const suite of suites) {
    if (suite.cells.length === 0) continue;
    const path = resolve(options.root, baselinePathFor(suite.file));
    const existing = await readIfPresent(path, baselinePathFor(suite.file));
    if (existing === 'unreadable') continue;
    const caseIds = new Set(suite.cells.map(([, caseId]) => caseId));
    const gone = existing === undefined ? [] : obsoleteEntries(existing, caseIds);
    obsolete.push(...gone.map((entry) => ({ ...entry, file: baselinePathFor(suite.file) })));
    if (!options.update) continue;
    const ran = suite.cells.flatMap(([agentName, caseId], index) => {
      const tally = tallyOf(suite.rows[index]);
      return tally === undefined ? [] : [{ agentName, caseId, ...tally }];
    });
    if (ran.length === 0 && gone.length === 0) continue;
    const next = updateBaseline(existing, ran, caseIds, options.passRule);
    const text = renderBaseline(next, basename(suite.file));
    const before = existing === undefined ? undefined : await readFile(path, 'utf8');
    if (before === text) continue;
    await writeFile(path, text);
    written.push(baselinePathFor(suite.file));
  }
  return { obsolete, ...(options.update && { written }) };
}

/** A cell's result as the baseline keeps it; undefined when some trial of it did not run. */
function tallyOf(rows: readonly ReportResult[] | undefined): Omit<RanCell, 'agentName' | 'caseId'> | undefined {
  if (rows === undefined || rows.length === 0 || rows.some((row) => row.notRun === true)) return undefined;
  const passes = rows.filter((row) => row.passed).length;
  return { passes, trials: rows.length, ...(rows.length === 1 && { outcome: rows[0]?.outcome }) };
}

async function readIfPresent(path: string, shown: string): Promise<Baseline | undefined | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable';
  }
  try {
    return parseBaseline(text, shown);
  } catch {
    // The suite's module already failed with the reason; an update must not overwrite what it cannot read.
    return 'unreadable';
  }
}
