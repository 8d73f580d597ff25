import { type Case, judgeCell } from '@gz-bench/core/run';
import type { TestContext } from 'vitest';
import type { WorkerOptions } from '../shared/options.js';
import type { ModuleBaseline } from './define-suite.js';
import type { TrialResult } from './run-trial.js';
import { safeAnnotate } from './safe-annotate.js';

/** What judging a cell against its baseline needs. */
export interface BaselineCell {
  baseline: ModuleBaseline;
  /** The cell's column (`columnName`): its agent and arm. */
  column: string | undefined;
  testCase: Case;
  finished: readonly TrialResult[];
  trials: number;
  options: WorkerOptions;
  /** The cell's verdict by its own rule, without the baseline. */
  verdict: { passed: boolean; message: string };
}

/**
 * The cell's test verdict with a baseline: a regression fails it, a known failure or a result within
 * noise passes it, with a note on the test (`ctx.annotate`) that says so; the judgement goes into the
 * test's meta for the report, whose rows keep their honest outcomes. An update run (`-u`) accepts
 * whatever the cell did: its result becomes the baseline.
 */
export async function againstBaseline(
  context: TestContext,
  cell: BaselineCell,
): Promise<{ passed: boolean; message: string }> {
  const { baseline, column, testCase, finished, trials, options, verdict } = cell;
  const entry = baseline.cells.find((cell) => cell.agentName === column && cell.caseId === testCase.id)?.entry;
  const passes = finished.filter((result) => result.passed).length;
  const rule = options.passRule ?? 'majority';
  const { judgement, passed, message } = judgeCell(entry, { passes, trials }, { rule, baseRule: baseline.passRule });
  context.task.meta.gzBenchBaseline = judgement;
  if (options.baselineUpdate === true) {
    if (judgement.verdict !== 'same' && message !== undefined) await note(context, `${message} (accepted by -u)`);
    return { passed: true, message: verdict.message };
  }
  if (!passed) {
    // A regression says what went wrong as well: the cell's own failure.
    const why = judgement.verdict === 'regression' ? `${message}: ${verdict.message}` : verdict.message;
    return { passed: false, message: why };
  }
  if (message !== undefined) await note(context, message);
  return { passed: true, message: verdict.message };
}

async function note(context: TestContext, message: string): Promise<void> {
  // An annotation is a courtesy to reporters and the IDE: a Vitest that refuses it changes no verdict.
  await safeAnnotate(context, message, 'notice');
}
