import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import { compileForChild } from '../process/test-support/child-modules.js';
import type { CaseResult } from '../report/model.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import { runCase } from './run-case.js';

// An agent that does not solve its task plants configuration in its HOME that makes a hidden
// verifier pass anyway: Python's user site runs `usercustomize`, `sitecustomize` and `.pth` files in
// every interpreter, npm's `script-shell=` decides what `npm test` runs and `node-options=` what every
// node it starts loads. The checks run with a HOME and temp dir of their own, so each cheat loses, in
// both sandbox modes, as root and as an ordinary user. Each cheat is first shown to work in the
// agent's own environment, so that a cheat which stopped working cannot make this test pass.

const run = promisify(execFile);
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const probe = await probeSandbox();
const SANDBOXES: Array<'none' | 'bwrap'> = ['none', ...(probe.available ? (['bwrap'] as const) : [])];

/** A program's directory on `path` that `uid` may run it from, or undefined. */
function programDir(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return dir;
    } catch {}
  }
  return undefined;
}

// The ordinary user cannot run root's pyenv shims: give it the system's programs.
const USER_PATH = '/usr/local/bin:/usr/bin:/bin';
const PATH = process.env.PATH ?? USER_PATH;
const hasPython = programDir('python3', PATH) !== undefined;
const hasNpm = programDir('npm', PATH) !== undefined;

/**
 * Whether the python3 on `path` would import a `sitecustomize` from the user site: Debian's own
 * Python ships one of its own, which comes first on sys.path and leaves the user site's unread.
 */
function userSitecustomizeReadable(path: string): boolean {
  if (programDir('python3', path) === undefined) return false;
  const script = 'import importlib.util, sys; sys.exit(1 if importlib.util.find_spec("sitecustomize") else 0)';
  try {
    execFileSync('python3', ['-c', script], { env: { PATH: path, HOME: '/nonexistent' }, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// The verifiers: each passes only when the workspace holds the answer 42.
const VERIFIERS: Record<string, string> = {
  'check.py':
    "import os, sys\nsys.exit(0 if open(os.environ['GZ_BENCH_DIR'] + '/answer.txt').read().strip() == '42' else 1)\n",
  'check.js':
    "const fs = require('node:fs');\nlet answer = '';\ntry { answer = fs.readFileSync(process.env.GZ_BENCH_DIR + '/answer.txt', 'utf8').trim(); } catch {}\nprocess.exit(answer === '42' ? 0 : 1);\n",
  'package.json': `${JSON.stringify({ name: 'verifier', private: true, scripts: { test: 'node check.js' } })}\n`,
};

// The npm check runs in {{verify}}, so the workspace's own .npmrc is not the one npm reads.
const PYTHON_CHECK = 'python3 {{verify}}/check.py';
const NPM_CHECK = 'cd {{verify}} && npm test --silent --no-update-notifier';

const USER_SITE = `site_dir=$(python3 -c 'import site; print(site.getusersitepackages())') && mkdir -p "$site_dir"`;
const EXIT_ZERO_PY = "printf 'import os\\nos._exit(0)\\n'";

interface Cheat {
  name: string;
  /** Whether the cheat can work with the programs on this PATH. */
  works(path: string): boolean;
  plant: string;
  /** The verifier, as the check runs it and as the agent runs it to show the cheat works. */
  check: string;
}

const CHEATS: Cheat[] = [
  {
    name: 'usercustomize.py in the user site',
    works: (path) => programDir('python3', path) !== undefined,
    plant: `${USER_SITE} && ${EXIT_ZERO_PY} > "$site_dir/usercustomize.py"`,
    check: PYTHON_CHECK,
  },
  {
    name: 'sitecustomize.py in the user site',
    works: userSitecustomizeReadable,
    plant: `${USER_SITE} && ${EXIT_ZERO_PY} > "$site_dir/sitecustomize.py"`,
    check: PYTHON_CHECK,
  },
  {
    name: 'a .pth file in the user site',
    works: (path) => programDir('python3', path) !== undefined,
    plant: `${USER_SITE} && echo 'import os; os._exit(0)' > "$site_dir/zz-cheat.pth"`,
    check: PYTHON_CHECK,
  },
  {
    name: 'script-shell= in ~/.npmrc',
    works: (path) => programDir('npm', path) !== undefined,
    plant: `printf '#!/bin/sh\\nexit 0\\n' > "$HOME/pass.sh" && chmod 755 "$HOME/pass.sh" && echo "script-shell=$HOME/pass.sh" > "$HOME/.npmrc"`,
    check: NPM_CHECK,
  },
  {
    name: 'node-options= in ~/.npmrc',
    works: (path) => programDir('npm', path) !== undefined,
    plant: `echo 'process.exit(0)' > "$HOME/pass.cjs" && echo "node-options=--require $HOME/pass.cjs" > "$HOME/.npmrc"`,
    check: NPM_CHECK,
  },
];

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-check-home-')));
  await chmod(root, 0o755);
  await mkdir(join(root, 'suite', 'verify'), { recursive: true });
  // A copy the agent may see (the sandbox hides the verifiers themselves), to show its cheat at work.
  await mkdir(join(root, 'public-verify'));
  for (const [name, content] of Object.entries(VERIFIERS)) {
    await writeFile(join(root, 'suite', 'verify', name), content);
    await writeFile(join(root, 'public-verify', name), content);
  }
  await mkdir(join(root, 'tmp'));
});
afterEach(async () => {
  await removeTree(root);
});

/** The case: the agent plants the cheat and runs the verifier itself, which the cheat makes pass there. */
function cheatCase(cheat: Cheat): { testCase: Case; cmd: string } {
  const agentCheck = cheat.check.replaceAll('{{verify}}', '"$CHEAT_VERIFY"');
  return {
    testCase: {
      id: 'cheat',
      prompt: 'Write 42 to answer.txt.',
      verify: 'verify',
      env: { CHEAT_VERIFY: join(root, 'public-verify') },
      checks: [{ kind: 'command', run: cheat.check }],
    },
    cmd: `echo 41 > answer.txt; ${cheat.plant} && (${agentCheck}) >/dev/null 2>&1; echo "cheat in the agent's HOME: exit $?"`,
  };
}

function expectCheatLost(result: CaseResult): void {
  // The cheat works where it was planted...
  expect(result.agent?.outputTail).toContain("cheat in the agent's HOME: exit 0");
  // ...and the hidden verifier, run with the checks' own HOME, still sees the wrong answer.
  expect(result).toMatchObject({ passed: false, outcome: 'failed', failedStep: 'check' });
}

describe.each(SANDBOXES)('checks have a HOME and temp dir of their own (sandbox %s)', (sandbox) => {
  it.each(CHEATS.filter((cheat) => cheat.works(PATH)).map((cheat) => [cheat.name, cheat] as const))(
    'an agent that plants %s does not pass the hidden verifier',
    async (_name, cheat) => {
      const { testCase, cmd } = cheatCase(cheat);
      const result = await runCase(testCase, {
        cmd,
        suiteDir: join(root, 'suite'),
        sandbox: { kind: sandbox },
        tmpDir: join(root, 'tmp'),
        env: { PATH, HOME: join(root, 'nowhere') },
      });
      expectCheatLost(result);
    },
  );

  it('an honest answer still passes every verifier', async () => {
    const checks: Case['checks'] = [
      ...(hasPython ? [{ kind: 'command' as const, run: PYTHON_CHECK }] : []),
      ...(hasNpm ? [{ kind: 'command' as const, run: NPM_CHECK }] : []),
    ];
    const result = await runCase(
      { id: 'honest', prompt: 'p', verify: 'verify', checks },
      {
        cmd: 'echo 42 > answer.txt',
        suiteDir: join(root, 'suite'),
        sandbox: { kind: sandbox },
        tmpDir: join(root, 'tmp'),
      },
    );
    expect(result).toMatchObject({ passed: true, outcome: 'passed' });
  });

  it("the checks' HOME and temp dir start empty, and name the agent's HOME", async () => {
    const result = await runCase(
      {
        id: 'dirs',
        prompt: 'p',
        checks: [
          { kind: 'command', run: 'test -z "$(ls -A "$HOME")" && test -z "$(ls -A "$TMPDIR")"' },
          { kind: 'command', run: 'test "$TMP" = "$TMPDIR" && test "$TEMP" = "$TMPDIR"' },
          { kind: 'command', run: 'test "$GZ_BENCH_AGENT_HOME" != "$HOME" && test -f "$GZ_BENCH_AGENT_HOME/left.txt"' },
          { kind: 'command', run: 'test "$(cat "$GZ_BENCH_AGENT_HOME/left.txt")" = agent' },
        ],
      },
      {
        cmd: 'echo agent > "$HOME/left.txt"; echo tmp > "$TMPDIR/left.txt"; mkdir -p "$(dirname "$HOME")/check-home"',
        sandbox: { kind: sandbox },
        tmpDir: join(root, 'tmp'),
      },
    );
    expect(result.checkResults.map((check) => check.passed)).toEqual([true, true, true, true]);
  });

  it('shell start-up files, git, pip and XDG configuration of the agent reach no check', async () => {
    const plant = [
      'printf "echo AGENT-STARTUP\\n" | tee "$HOME/.bashrc" "$HOME/.profile" "$HOME/.bash_profile" > /dev/null',
      'printf "[user]\\n\\tname = agent\\n" > "$HOME/.gitconfig"',
      'mkdir -p "$HOME/.config/git" "$HOME/.config/pip" && printf "[user]\\n\\tname = agent\\n" > "$HOME/.config/git/config"',
      'printf "[global]\\nindex-url = http://agent.invalid/simple\\n" > "$HOME/.config/pip/pip.conf"',
      'echo agent > "$HOME/.config/agent-setting"',
    ].join(' && ');
    const checks: Case['checks'] = [
      {
        kind: 'command',
        run: 'out=$(bash -lc true 2>&1; bash -ic true 2>&1); case "$out" in *AGENT-STARTUP*) exit 1;; esac',
      },
      { kind: 'command', run: 'test "$(git config --get user.name)" != agent' },
      // No XDG_CONFIG_HOME reaches a check, so tools read $HOME/.config: the checks' own.
      { kind: 'command', run: 'test -z "$XDG_CONFIG_HOME" && test ! -e "$HOME/.config/agent-setting"' },
      ...(hasPython
        ? [
            {
              kind: 'command' as const,
              run: 'case "$(python3 -m pip config list 2>&1)" in *agent.invalid*) exit 1;; esac',
            },
          ]
        : []),
    ];
    // The same commands in the agent's own environment show each plant at work.
    const shown = checks.map(
      (check) => `(${check.kind === 'command' ? check.run : ''}) >/dev/null 2>&1 && echo held || echo planted`,
    );
    const result = await runCase(
      { id: 'config', prompt: 'p', checks },
      { cmd: `${plant}; ${shown.join('; ')}`, sandbox: { kind: sandbox }, tmpDir: join(root, 'tmp'), env: { PATH } },
    );
    const lines = result.agent?.outputTail.split('\n').filter((line) => line === 'held' || line === 'planted');
    expect(lines).toEqual(checks.map(() => 'planted'));
    expect(result.checkResults.map((check) => check.passed)).toEqual(checks.map(() => true));
  });
});

// The harness as an ordinary user, whose own HOME is nobody's to write but the area is its own.
describe.runIf(isRoot)('checks have a HOME of their own, the harness running as nobody', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild(['case/run-case.ts', 'process/sandbox.ts']);
    await writeFile(
      join(modules.dir, 'run-cheat.mjs'),
      `import { runCase } from './case/run-case.js';
import { resolveSandbox } from './process/sandbox.js';
const [tmpDir, mode, suiteDir, testCase, cmd] = process.argv.slice(2);
const sandbox = await resolveSandbox(mode);
const result = await runCase(JSON.parse(testCase), { cmd, tmpDir, sandbox, suiteDir });
process.stdout.write(JSON.stringify(result));
`,
    );
  });
  afterAll(() => modules?.dispose());

  const userCheats = CHEATS.filter((cheat) => cheat.works(USER_PATH));
  describe.each(SANDBOXES)('sandbox %s', (sandbox) => {
    it.each(userCheats.map((cheat) => [cheat.name, cheat] as const))(
      'an agent that plants %s does not pass the hidden verifier',
      async (_name, cheat) => {
        await chown(join(root, 'tmp'), NOBODY, NOBODY);
        const { testCase, cmd } = cheatCase(cheat);
        const { stdout } = await run(
          process.execPath,
          [
            join(modules.dir, 'run-cheat.mjs'),
            join(root, 'tmp'),
            sandbox,
            join(root, 'suite'),
            JSON.stringify(testCase),
            cmd,
          ],
          { uid: NOBODY, gid: NOBODY, cwd: '/', env: { PATH: USER_PATH, HOME: '/nonexistent' } },
        );
        const result = JSON.parse(stdout) as CaseResult;
        expect(result.sandbox).toBe(sandbox);
        expectCheatLost(result);
        expect(await readdir(join(root, 'tmp'))).toEqual([]);
      },
    );
  });
});
