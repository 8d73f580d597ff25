import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SuiteError } from '../suite/errors.js';
import { readHarborTask } from './harbor.js';
import type { TaskDraft, TaskFormat } from './task-draft.js';
import { taskError } from './task-error.js';
import { displayOf, isDirectory } from './task-files.js';
import { readTerminalBenchTask } from './terminal-bench.js';

/** The file that makes a directory a task of each format. */
export const TASK_FILES: Record<TaskFormat, string> = { harbor: 'task.toml', 'terminal-bench': 'task.yaml' };

/** Whether `path` names a task's own file (task.toml, task.yaml), which loads as a one-task suite. */
export function isTaskFile(path: string): boolean {
  const name = basename(path);
  return name === TASK_FILES.harbor || name === TASK_FILES['terminal-bench'];
}

/** The format of the task directory `dir`, or undefined when it is none. */
export async function taskFormatOf(dir: string): Promise<TaskFormat | undefined> {
  const entries = new Set(await readdir(dir).catch(() => [] as string[]));
  if (entries.has(TASK_FILES.harbor)) return 'harbor';
  if (entries.has(TASK_FILES['terminal-bench'])) return 'terminal-bench';
  return undefined;
}

/**
 * The task directories `dir` stands for: itself when it is one, else those directly inside it, by
 * name. A directory with none fails, naming it.
 */
export async function findTaskDirs(dir: string, display: string): Promise<string[]> {
  if (!(await isDirectory(dir))) throw taskError(display, undefined, 'not a task directory or a directory of tasks');
  if ((await taskFormatOf(dir)) !== undefined) return [dir];
  const found: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => compare(a.name, b.name))) {
    if (entry.isDirectory() && (await taskFormatOf(join(dir, entry.name))) !== undefined) {
      found.push(join(dir, entry.name));
    }
  }
  if (found.length === 0) {
    throw new SuiteError({
      code: 'GZ_BENCH_SUITE_UNREADABLE',
      file: display,
      filePrefix: false,
      detail: `cannot read suite file ${display}: it is a directory with no task in it; name a .json suite file, a task directory (task.toml, task.yaml) or a directory of them`,
    });
  }
  return found;
}

/** Reads the task directory `dir` in its format. */
export async function readTask(dir: string, display: string): Promise<TaskDraft> {
  const format = await taskFormatOf(dir);
  if (format === 'harbor') return readHarborTask(dir, display);
  if (format === 'terminal-bench') return readTerminalBenchTask(dir, display);
  throw taskError(display, undefined, 'not a task directory: it has neither task.toml nor task.yaml');
}

/** How messages name the task `dir` found inside the directory shown as `display`. */
export function taskDisplay(display: string, root: string, dir: string): string {
  return dir === root ? display : displayOf(display, basename(dir));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The task files (task.toml, task.yaml) a path stands for, each a suite of one task, as `display`
 * shows them: a task's file itself, the file of a task directory, the files of a directory of tasks.
 * Vitest runs files, so a directory given to `gz-bench run` becomes these.
 */
export async function taskFilesOf(path: string, display: string): Promise<{ file: string; display: string }[]> {
  if (isTaskFile(path)) return [{ file: path, display }];
  const files = [];
  for (const dir of await findTaskDirs(path, display)) {
    const name = TASK_FILES[(await taskFormatOf(dir)) as TaskFormat];
    files.push({ file: join(dir, name), display: displayOf(taskDisplay(display, path, dir), name) });
  }
  return files;
}
