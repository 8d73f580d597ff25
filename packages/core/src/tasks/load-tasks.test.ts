import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuiteError } from '../suite/errors.js';
import { loadSuite } from '../suite/load.js';

// Harbor and Terminal-Bench task directories load as suites, as their authors wrote them.

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gz-bench-tasks-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeTree(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const HARBOR = {
  'tasks/fix-it/task.toml': [
    'version = "1.0"',
    '[metadata]',
    'author_name = "Ann"',
    'difficulty = "hard"',
    'category = "debugging"',
    'tags = ["python", "two words"]',
    '[verifier]',
    'timeout_sec = 90.0',
    'env = { STRICT = "1" }',
    '[agent]',
    'timeout_sec = 600.0',
    '[environment]',
    'allow_internet = false',
  ].join('\n'),
  'tasks/fix-it/instruction.md': 'Fix the bug in /app/main.py.\n',
  'tasks/fix-it/tests/test.sh': 'echo 1 > /logs/verifier/reward.txt\n',
  'tasks/fix-it/tests/test_main.py': 'def test(): pass\n',
  'tasks/fix-it/solution/solve.sh': 'sed -i s/bug/fix/ main.py\n',
  'tasks/fix-it/environment/Dockerfile':
    'FROM python:3.13\nWORKDIR /app\nCOPY main.py /app/main.py\nRUN pip install pytest\n',
  'tasks/fix-it/environment/main.py': 'bug\n',
};

const TERMINAL_BENCH = {
  'tb/sum/task.yaml': [
    'instruction: |-',
    '  Sum the numbers.',
    'difficulty: easy',
    'category: math',
    'tags: [arithmetic]',
    'parser_name: pytest',
    'max_agent_timeout_sec: 180',
    'max_test_timeout_sec: 30',
    'run_tests_in_same_shell: true',
  ].join('\n'),
  'tb/sum/run-tests.sh': 'pytest $TEST_DIR/test_outputs.py\n',
  'tb/sum/tests/test_outputs.py': 'def test(): pass\n',
  'tb/sum/solution.yaml': '- command: echo 6 > sum.txt\n- command: cat sum.txt\n',
  'tb/sum/Dockerfile': 'FROM ghcr.io/laude-institute/t-bench/python-3-13:20250620\nWORKDIR /app\nCOPY . /app\n',
  'tb/sum/numbers.txt': '1\n2\n3\n',
  'tb/sum/docker-compose.yaml':
    'services:\n  client:\n    build:\n      dockerfile: Dockerfile\n  db:\n    image: postgres:16\n',
};

describe('loading task directories', () => {
  it("reads a Harbor task's file as a suite of that task, named by its directory", async () => {
    await writeTree(HARBOR);
    const { suite } = await loadSuite(join(root, 'tasks/fix-it/task.toml'));
    expect(suite.name).toBe('fix-it');
    expect(suite.cases).toEqual([
      {
        verify: ['tests'],
        id: 'fix-it',
        prompt: 'Fix the bug in /app/main.py.\n',
        checks: [{ kind: 'command', run: "STRICT='1' bash /tests/test.sh" }],
        timeoutSec: 600,
        solution: ['bash /solution/solve.sh'],
        checkTimeoutSec: 90,
        workdir: '/app',
        network: false,
        layout: 'task',
        solutionFiles: ['solution'],
        files: [{ from: 'environment/main.py', to: 'main.py' }],
        // The Dockerfile is built where its base image is named, else the case runs on the host.
        environment: { dockerfile: 'environment/Dockerfile', context: 'environment', fallback: 'host' },
        tags: ['hard', 'debugging', 'python'],
        meta: {
          format: 'harbor',
          task: '.',
          difficulty: 'hard',
          category: 'debugging',
          tags: ['two words'],
          author: 'Ann',
        },
      },
    ]);
  });

  it('reads a Terminal-Bench task directory, and a directory of tasks as one suite of them', async () => {
    await writeTree({ ...TERMINAL_BENCH, ...HARBOR });
    const { suite } = await loadSuite(join(root, 'tb/sum'));
    expect(suite.name).toBe('sum');
    const [sum] = suite.cases;
    expect(sum).toMatchObject({
      id: 'sum',
      prompt: 'Sum the numbers.',
      verify: ['sum/tests', 'sum/run-tests.sh'],
      checks: [{ kind: 'command', run: 'TEST_DIR=/tests bash /tests/run-tests.sh' }],
      solution: ['echo 6 > sum.txt', 'cat sum.txt'],
      solutionFiles: ['sum/solution.yaml'],
      timeoutSec: 180,
      checkTimeoutSec: 30,
      // COPY . brings the task's own files, never its tests, solution or configuration.
      files: [{ from: 'sum/numbers.txt', to: 'numbers.txt' }],
      environment: {
        dockerfile: 'sum/Dockerfile',
        context: 'sum',
        ignore: ['task.yaml', 'run-tests.sh', 'tests', 'solution.sh', 'solution.yaml'],
        fallback: 'host',
      },
      // What no image built here gives: a compose service, the harness's own shell.
      notReproduced: [
        'the service db (postgres:16) of docker-compose.yaml',
        "run_tests_in_same_shell: the tests run in a fresh shell here, not in the agent's",
      ],
      tags: ['easy', 'math', 'arithmetic'],
      meta: { format: 'terminal-bench', parser: 'pytest' },
    });
    // Tasks are looked for in the directory and its directories, no deeper.
    await expect(loadSuite(root, { displayPath: '.' })).rejects.toThrow(
      'cannot read suite file .: it is a directory with no task in it; name a .json suite file, a task directory (task.toml, task.yaml) or a directory of them',
    );
    const tasks = await loadSuite(join(root, 'tasks'));
    expect(tasks.suite.cases.map((testCase) => testCase.id)).toEqual(['fix-it']);
  });

  it("runs a suite's tasks after its own cases, with the suite's settings", async () => {
    await writeTree({
      ...HARBOR,
      ...TERMINAL_BENCH,
      'bench/public.json': JSON.stringify({
        name: 'public',
        setupTimeoutSec: 30,
        tags: ['public'],
        tasks: ['../tasks', '../tb/sum'],
        cases: [{ id: 'own', prompt: 'p', checks: [] }],
      }),
    });
    const { suite } = await loadSuite(join(root, 'bench/public.json'));
    expect(suite.cases.map((testCase) => testCase.id)).toEqual(['own', 'fix-it', 'sum']);
    expect(suite.cases[1]?.verify).toEqual(['../tasks/fix-it/tests']);
    expect(suite.setupTimeoutSec).toBe(30);
    expect(suite.tags).toEqual(['public']);
  });

  it.each([
    [
      'a missing instruction',
      'tasks/fix-it/instruction.md',
      undefined,
      "tasks/fix-it/instruction.md: invalid task: file not found (a Harbor task's instruction)",
    ],
    [
      'a missing test script',
      'tasks/fix-it/tests/test.sh',
      undefined,
      "tasks/fix-it/tests/test.sh: invalid task: file not found (a Harbor task's test script)",
    ],
    ['unreadable TOML', 'tasks/fix-it/task.toml', 'a = [', 'tasks/fix-it/task.toml: invalid task: not valid TOML'],
    [
      'a timeout that is no number',
      'tasks/fix-it/task.toml',
      '[agent]\ntimeout_sec = "soon"\n',
      'tasks/fix-it/task.toml: invalid task at agent.timeout_sec: must be a positive number of seconds',
    ],
    [
      'a verifier variable that is no name',
      'tasks/fix-it/task.toml',
      '[verifier]\nenv = { "A;B" = "1" }\n',
      'tasks/fix-it/task.toml: invalid task at verifier.env.A;B: must be a variable name',
    ],
  ])('refuses %s with one line naming the file and field', async (_what, path, text, message) => {
    await writeTree(HARBOR);
    if (text === undefined) await rm(join(root, path));
    else await writeFile(join(root, path), text);
    const error = (await loadSuite('tasks/fix-it', { cwd: root, displayPath: 'tasks/fix-it' }).catch(
      (e) => e,
    )) as SuiteError;
    expect(error.name).toBe('SuiteError');
    expect(error.message.startsWith(message), error.message).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it.each([
    ['unreadable YAML', 'tb/sum/task.yaml', 'instruction: [oops\n', 'tb/sum/task.yaml: invalid task: not valid YAML'],
    [
      'no instruction',
      'tb/sum/task.yaml',
      'difficulty: easy\n',
      "tb/sum/task.yaml: invalid task at instruction: missing: a Terminal-Bench task's instruction",
    ],
    [
      'a missing run-tests.sh',
      'tb/sum/run-tests.sh',
      undefined,
      "tb/sum/run-tests.sh: invalid task: file not found (a Terminal-Bench task's test script)",
    ],
    [
      'a solution.yaml entry without a command',
      'tb/sum/solution.yaml',
      '- keys: C-c\n',
      'tb/sum/solution.yaml: invalid task at [0].command: must be a string',
    ],
  ])('refuses a Terminal-Bench task with %s', async (_what, path, text, message) => {
    await writeTree(TERMINAL_BENCH);
    if (text === undefined) await rm(join(root, path));
    else await writeFile(join(root, path), text);
    const error = (await loadSuite('tb/sum', { cwd: root, displayPath: 'tb/sum' }).catch((e) => e)) as SuiteError;
    expect(error.message.startsWith(message), error.message).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('refuses a link where a task file belongs', async () => {
    await writeTree(HARBOR);
    await rm(join(root, 'tasks/fix-it/instruction.md'));
    const { symlink } = await import('node:fs/promises');
    await symlink('/etc/hostname', join(root, 'tasks/fix-it/instruction.md'));
    await chmod(join(root, 'tasks/fix-it'), 0o755);
    await expect(loadSuite(join(root, 'tasks/fix-it'), { displayPath: 'tasks/fix-it' })).rejects.toThrow(
      'tasks/fix-it/instruction.md: invalid task: must be a regular file, not a link or a directory',
    );
  });
});
