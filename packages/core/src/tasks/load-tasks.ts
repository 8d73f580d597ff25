import { basename, dirname, relative, resolve, sep } from 'node:path';
import type { SuiteOrigin } from '../suite/errors.js';
import { findTaskDirs, isTaskFile, readTask, taskDisplay } from './find-tasks.js';
import { taskError } from './task-error.js';
import { taskToCase } from './to-case.js';

/**
 * The suite a task path stands for, not yet validated: a task's own file (task.toml, task.yaml) or a
 * task directory is a suite of that one task, named by its directory; a directory of tasks is a suite
 * of each, named by it. The cases' paths are relative to the directory that holds `origin`'s file, as a
 * suite's are to the suite file's.
 */
export async function taskSuiteData(origin: Required<SuiteOrigin>): Promise<Record<string, unknown>> {
  const path = origin.absoluteFile;
  const taskFile = isTaskFile(path);
  const root = taskFile ? dirname(path) : path;
  const display = taskFile ? dirname(origin.file) : origin.file;
  const dirs = await findTaskDirs(root, display);
  const cases = [];
  for (const dir of dirs) cases.push(taskToCase(await readTask(dir, taskDisplay(display, root, dir)), dirname(path)));
  return { name: basename(root), cases };
}

/**
 * The cases of a suite's `tasks` entries (task directories, or directories of them, relative to the
 * suite file), each named by its directory, which must be unique in the suite.
 */
export async function suiteTaskCases(
  entries: readonly string[],
  origin: Required<SuiteOrigin>,
  takenIds: readonly string[],
): Promise<Record<string, unknown>[]> {
  const suiteDir = dirname(origin.absoluteFile);
  const seen = new Map(takenIds.map((id) => [id, 'a case of the suite']));
  const cases: Record<string, unknown>[] = [];
  for (const [index, entry] of entries.entries()) {
    const root = resolve(suiteDir, entry);
    const shown = relative(process.cwd(), root).split(sep).join('/') || '.';
    for (const dir of await findTaskDirs(root, shown).catch((error: Error & { detail?: string }) => {
      throw taskError(
        origin.file,
        `tasks[${index}]`,
        `${(error.detail ?? error.message).replace(/^invalid task: /, '')}: ${entry}`,
      );
    })) {
      const task = taskToCase(await readTask(dir, taskDisplay(shown, root, dir)), suiteDir);
      const id = task.id as string;
      const other = seen.get(id);
      if (other !== undefined) {
        throw taskError(
          origin.file,
          `tasks[${index}]`,
          `the task ${id} has the name of ${other}; task names must be unique`,
        );
      }
      seen.set(id, `the task in ${relative(suiteDir, dir) || '.'}`);
      cases.push(task);
    }
  }
  return cases;
}
