import { basename, relative, sep } from 'node:path';
import { tagProblem } from '../suite/labels.js';
import type { TaskDraft } from './task-draft.js';

/**
 * A task as a case of a suite in `suiteDir` (its paths relative to it), not yet validated: instruction
 * → prompt, tests → hidden verifiers and the one check, solution → the oracle, timeouts, labels, and
 * what of the environment is reproduced here and what is not.
 */
export function taskToCase(task: TaskDraft, suiteDir: string): Record<string, unknown> {
  const rel = (path: string) => relative(suiteDir, path).split(sep).join('/') || '.';
  const labels = [task.difficulty, task.category, ...task.tags].filter((tag): tag is string => tag !== undefined);
  // What --tags-filter cannot read stays in the row's metadata, never lost.
  const tags = [...new Set(labels.filter((tag) => tagProblem(tag) === undefined))];
  const otherTags = task.tags.filter((tag) => tagProblem(tag) !== undefined);
  const { environment } = task;
  const notReproduced = [...(task.dockerfile === undefined ? environment.notReproduced : []), ...task.beyondImage];
  return {
    id: basename(task.dir),
    prompt: task.instruction,
    checks: [{ kind: 'command', run: task.check }],
    verify: task.verify.map(rel),
    ...(task.solution && { solution: task.solution.lines }),
    ...(task.solution && task.solution.files.length > 0 && { solutionFiles: task.solution.files.map(rel) }),
    ...(task.agentTimeoutSec !== undefined && { timeoutSec: task.agentTimeoutSec }),
    ...(task.checkTimeoutSec !== undefined && { checkTimeoutSec: task.checkTimeoutSec }),
    layout: 'task',
    workdir: environment.workdir ?? '/app',
    ...(environment.files.length > 0 && {
      files: environment.files.map(({ from, to }) => ({ from: rel(`${task.contextDir}/${from}`), to })),
    }),
    ...(Object.keys(environment.env).length > 0 && { env: environment.env }),
    ...(task.internet === false && { network: false }),
    ...(tags.length > 0 && { tags }),
    meta: {
      format: task.format,
      task: rel(task.dir),
      ...(task.difficulty !== undefined && { difficulty: task.difficulty }),
      ...(task.category !== undefined && { category: task.category }),
      ...(otherTags.length > 0 && { tags: otherTags }),
      ...task.meta,
    },
    // Where its base image is here the Dockerfile is built; where not, the case runs on the host and
    // the Dockerfile's lines the host does not reproduce are named then.
    ...(task.dockerfile !== undefined && {
      environment: {
        dockerfile: rel(task.dockerfile.path),
        context: rel(task.contextDir),
        ...(task.dockerfile.ignore.length > 0 && { ignore: task.dockerfile.ignore }),
        fallback: 'host',
      },
    }),
    ...(notReproduced.length > 0 && { notReproduced }),
  };
}
