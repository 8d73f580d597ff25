import { join } from 'node:path';
import { composeServices } from './compose.js';
import { readDockerfile } from './dockerfile.js';
import { optional } from './harbor.js';
import { testScriptNeeds } from './script-needs.js';
import type { TaskDraft } from './task-draft.js';
import { TaskFields, taskError } from './task-error.js';
import { contextEntries, displayOf, isDirectory, parseTaskYaml, readTaskText, requireFile } from './task-files.js';

// Terminal-Bench 1's layout: task.yaml (the instruction among its settings), run-tests.sh and tests/,
// solution.sh or solution.yaml, a Dockerfile and docker-compose.yaml at the top. Its harness copies
// run-tests.sh and tests/ to /tests and runs `bash /tests/run-tests.sh` with TEST_DIR=/tests in the
// container's working directory; pytest's exit code is its verdict.

/** The task's own files, which a `COPY . <dest>` of its Dockerfile never brings along. */
const TASK_OWN = ['task.yaml', 'run-tests.sh', 'tests', 'solution.sh', 'solution.yaml'];

/** Reads a Terminal-Bench 1 task directory; `display` is how messages name it. */
export async function readTerminalBenchTask(dir: string, display: string): Promise<TaskDraft> {
  const yamlDisplay = displayOf(display, 'task.yaml');
  const data = await parseTaskYaml(await readTaskText(join(dir, 'task.yaml'), yamlDisplay), yamlDisplay);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw taskError(yamlDisplay, undefined, 'must be a YAML mapping of the task settings');
  }
  const yaml = new TaskFields(yamlDisplay, data as Record<string, unknown>, '');
  const instruction = yaml.string('instruction') ?? firstDescription(yaml);
  if (instruction === undefined || instruction.trim() === '') {
    throw yaml.error('instruction', "missing: a Terminal-Bench task's instruction");
  }
  await requireFile(
    join(dir, 'run-tests.sh'),
    displayOf(display, 'run-tests.sh'),
    "a Terminal-Bench task's test script",
  );
  const tests = join(dir, 'tests');
  const verify = [...((await isDirectory(tests)) ? [tests] : []), join(dir, 'run-tests.sh')];
  const solution = await readSolution(dir, display);

  const dockerfile = await readTaskText(join(dir, 'Dockerfile'), displayOf(display, 'Dockerfile'), { optional: true });
  const environment = readDockerfile(dockerfile ?? '', await contextEntries(dir, TASK_OWN));
  const beyondImage = [
    ...(await composeServices(dir, display)),
    ...(await testScriptNeeds(join(dir, 'run-tests.sh'), [tests])),
  ];
  if (yaml.boolean('run_tests_in_same_shell') === true) {
    beyondImage.push("run_tests_in_same_shell: the tests run in a fresh shell here, not in the agent's");
  }
  const author = yaml.string('author_name');
  const parser = yaml.string('parser_name');
  return {
    format: 'terminal-bench',
    dir,
    instruction,
    verify,
    check: 'TEST_DIR=/tests bash /tests/run-tests.sh',
    ...(solution && { solution }),
    ...optional('agentTimeoutSec', yaml.seconds('max_agent_timeout_sec')),
    ...optional('checkTimeoutSec', yaml.seconds('max_test_timeout_sec')),
    ...optional('difficulty', yaml.string('difficulty')),
    ...optional('category', yaml.string('category')),
    tags: yaml.strings('tags'),
    meta: { ...(author !== undefined && { author }), ...(parser !== undefined && { parser }) },
    contextDir: dir,
    environment,
    // The tests and the solution stay out of the image, as they stay out of the agent's reach.
    ...(dockerfile !== undefined && { dockerfile: { path: join(dir, 'Dockerfile'), ignore: TASK_OWN } }),
    beyondImage,
  };
}

/** The instruction of tasks written before `instruction` existed: the `base` entry of `descriptions`. */
function firstDescription(yaml: TaskFields): string | undefined {
  const descriptions = yaml.raw('descriptions');
  if (!Array.isArray(descriptions)) return undefined;
  const entries = descriptions as { key?: unknown; description?: unknown }[];
  const base = entries.find((entry) => entry?.key === 'base') ?? entries[0];
  return typeof base?.description === 'string' ? base.description : undefined;
}

/** solution.sh (run as `bash /solution/solution.sh`) or solution.yaml (its commands, in order). */
async function readSolution(dir: string, display: string): Promise<TaskDraft['solution']> {
  if (await requireFile(join(dir, 'solution.sh'), displayOf(display, 'solution.sh'), undefined)) {
    return { lines: ['bash /solution/solution.sh'], files: [join(dir, 'solution.sh')] };
  }
  const shown = displayOf(display, 'solution.yaml');
  const text = await readTaskText(join(dir, 'solution.yaml'), shown, { optional: true });
  if (text === undefined) return undefined;
  const data = await parseTaskYaml(text, shown);
  if (!Array.isArray(data)) throw taskError(shown, undefined, 'must be a list of { command } entries');
  const lines = data.map((entry: unknown, index) => {
    const command = (entry as { command?: unknown } | null)?.command;
    if (typeof command !== 'string') throw taskError(shown, `[${index}].command`, 'must be a string');
    return command;
  });
  // The file itself is among the solution's files: hidden from the agent, as solution.sh is.
  return lines.length === 0 ? undefined : { lines, files: [join(dir, 'solution.yaml')] };
}
