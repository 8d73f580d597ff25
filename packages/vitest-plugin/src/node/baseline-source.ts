import { readFile } from 'node:fs/promises';
import { type Baseline, BaselineError, baselinePathFor, parseBaseline } from '@gz-bench/core';

/**
 * The baseline file beside a suite file, read and checked, or undefined when there is none. A file
 * that cannot be used throws a BaselineError (its message names the file as `displayPath` shows the
 * suite's), so that a run never judges cells against half a baseline.
 */
export async function readSuiteBaseline(suiteFile: string, displayPath = suiteFile): Promise<Baseline | undefined> {
  let text: string;
  try {
    text = await readFile(baselinePathFor(suiteFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new BaselineError(`${baselinePathFor(displayPath)}: cannot read the baseline file (${reason})`);
  }
  return parseBaseline(text, baselinePathFor(displayPath));
}
