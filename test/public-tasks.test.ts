import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeSandbox } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { runCli, runVitest } from './support/run.js';

// Harbor and Terminal-Bench task directories run as their authors wrote them: under bwrap at /app,
// with their tests at /tests only for the checks, their reward read from /logs/verifier, and what of
// their environment the host does not provide named per task.

const { project } = cleanupAfterAll();
const probe = await probeSandbox();

// The secret each task's tests and solution hold: an agent that finds it has read them.
const SECRET = 'ORACLE-7f3a';

const TASKS: Record<string, string> = {
  // Harbor: the verdict is the reward test.sh writes, whatever its exit code.
  'tasks/greet/task.toml': [
    'version = "1.0"',
    '[metadata]',
    'difficulty = "easy"',
    'category = "file-ops"',
    'tags = ["shell"]',
    '[verifier]',
    'timeout_sec = 30.0',
    '[agent]',
    'timeout_sec = 60.0',
  ].join('\n'),
  'tasks/greet/instruction.md': 'Write "hello" to /app/greeting.txt.\n',
  'tasks/greet/tests/test.sh': [
    '#!/bin/bash',
    `# ${SECRET}`,
    'if [ "$(cat /app/greeting.txt 2>/dev/null)" = hello ] && [ "$(cat /app/seed.txt)" = seed ]; then',
    '  echo 1 > /logs/verifier/reward.txt',
    'else',
    '  echo "FAILED test_greeting: greeting.txt is not hello"',
    '  echo 0 > /logs/verifier/reward.txt',
    'fi',
  ].join('\n'),
  'tasks/greet/solution/solve.sh': `# ${SECRET}\necho hello > /app/greeting.txt\n`,
  'tasks/greet/environment/Dockerfile':
    'FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y curl\nWORKDIR /app\nCOPY seed.txt /app/\n',
  'tasks/greet/environment/seed.txt': 'seed\n',
  // Terminal-Bench 1: the verdict is run-tests.sh's exit code.
  'tasks/count/task.yaml': [
    'instruction: |-',
    '  Write the number of lines of /app/lines.txt to /app/count.txt.',
    'difficulty: medium',
    'category: text',
    'parser_name: pytest',
    'max_agent_timeout_sec: 60',
    'max_test_timeout_sec: 30',
  ].join('\n'),
  'tasks/count/run-tests.sh': `#!/bin/bash\n# ${SECRET}\nsh $TEST_DIR/check.sh\n`,
  'tasks/count/tests/check.sh': `# ${SECRET}\ntest "$(cat /app/count.txt)" = 3 || { echo "FAILED tests/check.sh::test_count"; exit 1; }\n`,
  'tasks/count/solution.sh': `# ${SECRET}\nwc -l < /app/lines.txt | tr -d ' ' > /app/count.txt\n`,
  'tasks/count/Dockerfile':
    'FROM ghcr.io/laude-institute/t-bench/python-3-13:20250620\nWORKDIR /app\nCOPY lines.txt /app/\n',
  'tasks/count/lines.txt': 'a\nb\nc\n',
  'tasks/count/docker-compose.yaml':
    'services:\n  client:\n    build:\n      dockerfile: Dockerfile\n  cache:\n    image: redis:7\n',
};

// Looks for the tests and the solution everywhere it can, and forges a passing reward and verifier.
const HOSTILE = [
  'for f in /tests/* "$TASKS"/*/tests/* "$TASKS"/*/run-tests.sh "$TASKS"/*/solution* "$TASKS"/*/solution/* /solution/*; do',
  '  cat "$f" 2>/dev/null',
  'done',
  'echo 1 > /logs/verifier/reward.txt',
  'area=$(dirname "$GZ_BENCH_PROMPT_FILE")',
  'mkdir -p "$area/verify" && echo "echo 1 > /logs/verifier/reward.txt" > "$area/verify/test.sh"',
  'echo hostile done',
].join('\n');

async function taskProject() {
  const temp = await project({ ...TASKS, 'hostile.sh': HOSTILE });
  const tmp = join(temp.dir, 'tmp');
  await mkdir(tmp);
  return { temp, tmp, env: { TMPDIR: tmp } };
}

describe.skipIf(!probe.available)('public benchmark tasks under bwrap', () => {
  it('check-suite proves both formats: each oracle passes, each no-op fails, and says what is not reproduced', async () => {
    const { temp, tmp, env } = await taskProject();
    const result = await runCli(['check-suite', 'tasks', '--sandbox', 'bwrap'], {
      cwd: temp.dir,
      env,
      timeoutMs: 120_000,
    });
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('gz-bench: all 2 cases fail with a no-op agent and pass with their own solution');
    expect(result.stdout).toContain(
      [
        'tasks/count/task.yaml: count: not reproduced here:',
        '  - the image of Dockerfile (the case runs on the host until --base-image ghcr.io/laude-institute/t-bench/python-3-13:20250620=ARCHIVE names its base)',
        "  - the image ghcr.io/laude-institute/t-bench/python-3-13:20250620 (FROM): the host's own tools are used instead",
        '  - the service cache (redis:7) of docker-compose.yaml',
      ].join('\n'),
    );
    expect(result.stdout).toContain(
      [
        'tasks/greet/task.toml: greet: not reproduced here:',
        '  - the image of environment/Dockerfile (the case runs on the host until --base-image ubuntu:24.04=ARCHIVE names its base)',
        "  - the image ubuntu:24.04 (FROM): the host's own tools are used instead",
        '  - RUN apt-get update && apt-get install -y curl',
      ].join('\n'),
    );
    // The no-op's failure quotes the task's own words and reward.
    expect(result.stderr).toContain('reward 0 in /logs/verifier/reward.txt: FAILED test_greeting');
    expect(await readdir(tmp)).toEqual([]);
  });

  it('keeps tests and solutions from an agent, and no reward it forges passes', async () => {
    const { temp, env } = await taskProject();
    const result = await runCli(
      ['run', 'tasks', '--cmd', `TASKS=${temp.dir}/tasks sh ${temp.dir}/hostile.sh`, '--sandbox', 'bwrap', '--json'],
      { cwd: temp.dir, env, timeoutMs: 120_000 },
    );
    expect(result.exitCode, String(result.stderr)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as {
      results: { id: string; passed: boolean; error?: string; agent?: { outputTail: string }; warnings?: string[] }[];
    };
    expect(report.results.map((row) => [row.id, row.passed])).toEqual([
      ['count', false],
      ['greet', false],
    ]);
    for (const row of report.results) {
      expect(row.agent?.outputTail).toContain('hostile done');
      expect(row.agent?.outputTail).not.toContain(SECRET);
      expect(row.warnings?.some((warning) => warning.startsWith('not reproduced here: the image'))).toBe(true);
    }
    const greet = report.results.find((row) => row.id === 'greet');
    expect(greet?.error).toBe('reward 0 in /logs/verifier/reward.txt: FAILED test_greeting: greeting.txt is not hello');
  });

  it("runs through vitest with the plugin, each task's own file a test file", async () => {
    const { temp, env } = await taskProject();
    const files = pluginProjectFiles({
      cmd: 'true',
      sandbox: 'bwrap',
      checkSuite: true,
      include: ['tasks/*/task.toml', 'tasks/*/task.yaml'],
    });
    for (const [path, content] of Object.entries(files)) await temp.write(path, content);
    const result = await runVitest(['run'], { cwd: temp.dir, env, timeoutMs: 120_000 });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.exitCode, output).toBe(0);
    expect(output).toContain('tasks/greet/task.toml');
    expect(output).toContain('tasks/count/task.yaml');
    expect(output).toMatch(/Tests\s+4 passed/);
  });

  it('import writes an ordinary suite that check-suite proves as well', async () => {
    const { temp, env } = await taskProject();
    const written = await runCli(['import', 'tasks', '--out', 'bench', '--name', 'public'], { cwd: temp.dir, env });
    expect(written.exitCode, String(written.stderr)).toBe(0);
    expect(written.stdout).toContain('wrote bench/public.bench.json (2 tasks) and bench/public/');
    const suite = JSON.parse(await readFile(join(temp.dir, 'bench/public.bench.json'), 'utf8'));
    expect(suite.cases.map((testCase: { id: string; verify: string }) => [testCase.id, testCase.verify])).toEqual([
      ['count', 'public/count/tests'],
      ['greet', 'public/greet/tests'],
    ]);
    expect((await readdir(join(temp.dir, 'bench/public/count/tests'))).sort()).toEqual(['check.sh', 'run-tests.sh']);
    const again = await runCli(['import', 'tasks', '--out', 'bench', '--name', 'public'], { cwd: temp.dir, env });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already exists; remove it or choose another --out or --name');
    const proved = await runCli(['check-suite', 'bench/public.bench.json', '--sandbox', 'bwrap'], {
      cwd: temp.dir,
      env,
      timeoutMs: 120_000,
    });
    expect(proved.exitCode, `${proved.stdout}\n${proved.stderr}`).toBe(0);
  });
});

describe('public benchmark tasks, whatever the sandbox', () => {
  it('validate names each task and what of its environment is not reproduced', async () => {
    const { temp, env } = await taskProject();
    const result = await runCli(['validate', 'tasks'], { cwd: temp.dir, env });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(result.stdout).toContain('tasks: valid suite "tasks" with 2 cases');
    expect(result.stdout).toContain('tasks: greet: not reproduced here:\n');
  });

  it('refuses to run a task without the bwrap sandbox, saying why', async () => {
    const { temp, env } = await taskProject();
    const result = await runCli(['run', 'tasks/greet', '--cmd', 'true', '--sandbox', 'none'], {
      cwd: temp.dir,
      env,
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'gz-bench: tasks/greet/task.toml: case "greet": workdir "/app" needs the bwrap sandbox; run with --sandbox bwrap (or auto)',
    );
  });

  it('refuses a bad task directory in one line, exit 2', async () => {
    const { temp, env } = await taskProject();
    await temp.write('tasks/greet/task.toml', '[agent]\ntimeout_sec = -1\n');
    const result = await runCli(['run', 'tasks', '--cmd', 'true'], { cwd: temp.dir, env });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr).trim().split('\n')[0]).toBe(
      'gz-bench: tasks/greet/task.toml: invalid task at agent.timeout_sec: must be a positive number of seconds',
    );
  });
});

describe.skipIf(!probe.available)('hidden verifiers of a whole run', () => {
  it("hides every case's verifiers from every agent, across suites, not only its own", async () => {
    const suite = (name: string) => ({
      name,
      cases: [
        {
          id: name,
          prompt: 'p',
          verify: `verify-${name}`,
          checks: [{ kind: 'command', run: 'sh {{verify}}/check.sh' }],
        },
      ],
    });
    const temp = await project({
      'one.json': suite('one'),
      'two.json': suite('two'),
      'verify-one/check.sh': `# ${SECRET}\nexit 1\n`,
      'verify-two/check.sh': `# ${SECRET}\nexit 1\n`,
    });
    const cmd = `cat ${temp.dir}/verify-one/check.sh ${temp.dir}/verify-two/check.sh; echo looked`;
    const result = await runCli(['run', 'one.json', 'two.json', '--cmd', cmd, '--sandbox', 'bwrap', '--json'], {
      cwd: temp.dir,
      timeoutMs: 60_000,
    });
    const report = JSON.parse(String(result.stdout)) as { results: { agent?: { outputTail: string } }[] };
    expect(report.results).toHaveLength(2);
    for (const row of report.results) {
      expect(row.agent?.outputTail).toContain('looked');
      expect(row.agent?.outputTail).not.toContain(SECRET);
    }
  });
});
