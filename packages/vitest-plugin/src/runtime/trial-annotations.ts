import { lstat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { TestContext } from 'vitest';
import type { WorkerOptions } from '../shared/options.js';
import type { TrialResult } from './run-trial.js';
import { safeAnnotate } from './safe-annotate.js';

// What Vitest does with an attachment by path (4.1.12 and 5.1.2 alike): the worker sends only the
// path; the main process copies the file into `attachmentsDir` (`.vitest-attachments/` in 4.1,
// `.vitest/attachments/` in 5) as `<message, sanitized>-<sha1 of the source path><ext>`, and the
// annotation then names the copy. `--reporter=html` copies that directory beside its page (4.1:
// `html/data/`; 5: the page sits in `.vitest/`, beside `attachments/`) and `vitest --ui` serves the
// same copies. Blob reports keep the annotations with the copies' absolute paths but not the files:
// a merge run finds them only in its own `attachmentsDir`, so sharded CI carries that directory
// with the blobs. A path that is gone rejects the annotation (ENOENT) and records none.
// So the worker reads no file, and a message never grows into a file name too long to copy.

/** Annotation type of one trial's outcome and first failure. */
export const TRIAL_ANNOTATION = 'gz-bench.trial';
/** Annotation type whose attachment is the trial's `changes.diff`. */
export const CHANGES_ANNOTATION = 'gz-bench.changes';
/** Annotation type whose attachment is the trial's `trajectory.json` (ATIF). */
export const TRAJECTORY_ANNOTATION = 'gz-bench.trajectory';
/** Annotation type whose attachment is the trial's `agent.log`. */
export const AGENT_LOG_ANNOTATION = 'gz-bench.log';

// An error can carry the agent's output; the report has it whole.
const MAX_ERROR_CHARS = 1000;

/** The files of a trial that go onto its test, in the order Vitest's viewers list them. */
const TRIAL_FILES = [
  { type: CHANGES_ANNOTATION, name: 'changes', contentType: 'text/x-diff', of: (r: TrialResult) => r.changes?.file },
  {
    type: TRAJECTORY_ANNOTATION,
    name: 'trajectory',
    contentType: 'application/json',
    of: (r: TrialResult) => r.trajectory?.file,
  },
  { type: AGENT_LOG_ANNOTATION, name: 'agent log', contentType: 'text/plain', of: (r: TrialResult) => r.agent?.log },
] as const;

/**
 * Puts each trial of the cell on its test: an annotation with its outcome and first failure, then
 * its `changes.diff`, `trajectory.json` and `agent.log` attached by path, so that `vitest --ui`,
 * `--reporter=html` and merged blob reports show them. Best effort, like every annotation: a Vitest
 * that lacks or refuses the API changes no verdict.
 */
export async function annotateTrials(
  context: TestContext,
  finished: readonly TrialResult[],
  trials: number,
  logs: WorkerOptions['logs'],
): Promise<void> {
  for (const result of finished) {
    // Messages are unique on the test: Vitest's UI keys its list of annotations by type and message.
    const prefix = trials > 1 && result.trial !== undefined ? `trial ${result.trial} ` : '';
    await safeAnnotate(context, `${prefix}${trialMessage(result)}`.trimEnd(), TRIAL_ANNOTATION);
    if (logs === false) continue;
    for (const file of TRIAL_FILES) {
      const path = await attachablePath(file.of(result), logs);
      if (path === undefined) continue;
      // The message becomes the copy's file name and the UI's download name (`trial-2-changes.diff`).
      await safeAnnotate(context, `${prefix}${file.name}`, file.type, { path, contentType: file.contentType });
    }
  }
}

/** `failed: output does not match /^uno$/m`, or `passed`. */
function trialMessage(result: TrialResult): string {
  if (result.error === undefined || result.passed) return result.outcome;
  const error = result.error.length > MAX_ERROR_CHARS ? `${result.error.slice(0, MAX_ERROR_CHARS)}…` : result.error;
  return `${result.outcome}: ${error}`;
}

/**
 * The absolute path of a file a row names (relative to the Vitest root), when it is a regular file
 * inside the run's logs directory. A row kept from an earlier report (`onlyFailed`) is only as
 * trustworthy as that file, and Vitest copies whatever path it is given.
 */
async function attachablePath(
  display: string | undefined,
  logs: { dir: string; root: string },
): Promise<string | undefined> {
  if (display === undefined || display === '') return undefined;
  const path = resolve(logs.root, display);
  const inside = relative(logs.dir, path);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  try {
    return (await lstat(path)).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
