import { chown, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from 'execa';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  agent,
  openToOthers,
  parseReport,
  SANDBOX_WORKS,
  SCRIPT_CMD,
  type Scene,
  sceneFactory,
} from './adversarial/support.js';
import { type ReachableCheckout, reachableCheckout } from './support/other-user.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';

// What the commands of a case receive of the environment: allowEnv lists and PREFIX_* patterns, env
// constants of the suite and the case, warnings for names the harness does not set, and an agent
// that commits with a git identity of its own while the checks' git stays hardened. Through the CLI
// (and the plugin for the warnings), in both sandbox modes, as root and as nobody.

const scene = sceneFactory();
const isRoot = process.getuid?.() === 0;
const MODES = ['none', ...(SANDBOX_WORKS ? ['bwrap'] : [])];
const NOBODY = 65534;

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** The harness's variables of the env run; GZB_SECRET must reach nothing. */
const HARNESS = {
  GZB_FLAG_A: 'a',
  GZB_FLAG_B: 'b',
  GZB_P_ONE: '1',
  GZB_P_TWO: '2',
  GZB_SUITE_KEY: 'k',
  GZB_SECRET: 'never-passed',
};

/** A suite that prints what its commands see, with constants and allowEnv at both levels. */
async function writeEnvSuite(where: Scene): Promise<void> {
  await where.writeSuite('env', { allowEnv: ['GZB_SUITE_KEY'], env: { GZB_CONST: 'suite', GZB_OVER: 'suite' } }, [
    {
      id: 'vars',
      env: { GZB_OVER: 'case' },
      allowEnv: ['GZB_P_*, GZB_SUITE_KEY'],
      setup: ['[ "$GZB_OVER" = case ] && [ "$GZB_P_TWO" = 2 ] && [ "$GZB_FLAG_B" = b ]'],
      prompt:
        'printf "flags=%s,%s p=%s,%s key=%s const=%s over=%s secret=%s\\n" "$GZB_FLAG_A" "$GZB_FLAG_B" "$GZB_P_ONE" "$GZB_P_TWO" "$GZB_SUITE_KEY" "$GZB_CONST" "$GZB_OVER" "$(env | grep -c ^GZB_SECRET=)"',
      checks: [
        { kind: 'command', run: '[ "$GZB_CONST" = suite ] && [ "$GZB_OVER" = case ] && ! env | grep -q ^GZB_SECRET=' },
      ],
    },
    {
      id: 'inherits',
      prompt: 'printf "key=%s p=%s over=%s\\n" "$GZB_SUITE_KEY" "$(env | grep -c ^GZB_P_ONE=)" "$GZB_OVER"',
    },
  ]);
}

/** A git case: the agent commits, then plants hooks and an fsmonitor that a check's git must not run. */
function gitCase(plantHooks: string) {
  return {
    id: 'commit',
    git: true,
    setup: ['echo base > base.txt'],
    prompt: [
      'echo work > work.txt',
      'git init -q && git add . && git commit -qm x',
      'git log -1 --format=%an/%ae',
      `${plantHooks} "$GZ_BENCH_DIR/hook-ran-"`,
    ].join(' && '),
    checks: [
      { kind: 'command', run: 'git log -1 --format=%an | grep -qx "gz-bench agent"' },
      { kind: 'command', run: 'git status --short >/dev/null && git checkout -q -b probe' },
      // The agent's own git ran its hooks (the trap is armed); the check's did not.
      { kind: 'fileExists', path: 'hook-ran-armed' },
      { kind: 'fileNotExists', path: 'hook-ran-' },
    ],
  };
}

describe.concurrent.each(MODES)('gz-bench run --sandbox %s', (mode) => {
  it('allowEnv lists and patterns and env constants reach the commands, and nothing else does', async ({ expect }) => {
    const where = await scene();
    await writeEnvSuite(where);
    const result = await where.runSuite(
      ['--json', '--sandbox', mode, '--allow-env', 'GZB_FLAG_A,GZB_FLAG_B', '--allow-env', 'GZB_NOT_SET_*'],
      HARNESS,
    );
    expect(result.exitCode, output(result)).toBe(0);
    const report = parseReport(result);
    expect(resultOf(report, 'vars')).toMatchObject({ passed: true, sandbox: mode });
    expect(resultOf(report, 'vars').agent?.outputTail).toBe('flags=a,b p=1,2 key=k const=suite over=case secret=0\n');
    // The case without allowEnv of its own inherits the suite's, and the suite's constants.
    expect(resultOf(report, 'inherits').agent?.outputTail).toBe('key=k p=0 over=suite\n');
    expect(String(result.stderr)).not.toContain('never-passed');
    expect(await where.leftovers()).toEqual({ files: [], processes: [] });
  });

  it("an agent commits in a git: true case as itself; a check's git still ignores the hooks it wrote", async ({
    expect,
  }) => {
    const where = await scene();
    await where.writeSuite('git', {}, [gitCase(agent('plant-git-hooks.mjs'))]);
    const result = await where.runSuite(['--json', '--sandbox', mode]);
    const commit = resultOf(parseReport(result), 'commit');
    expect(commit.agent?.outputTail).toBe('gz-bench agent/agent@gz-bench.invalid\nplanted\n');
    expect(commit, output(result)).toMatchObject({ passed: true, sandbox: mode });
    expect(result.exitCode).toBe(0);
    expect(await where.leftovers()).toEqual({ files: [], processes: [] });
  });
});

describe('warnings about variables that are not set', () => {
  const UNSET = (name: string, origin: string) =>
    `gz-bench: warning: ${name} (${origin}) is not set; the agent will not receive it`;
  const NONE = (pattern: string, origin: string) =>
    `gz-bench: warning: ${pattern} (${origin}) matches no variable that is set; the agent will receive none`;
  const SUITE = {
    name: 'warn',
    allowEnv: ['GZB_SET_KEY', 'GZB_UNSET_KEY'],
    cases: [
      { id: 'own', prompt: 'true', allowEnv: ['GZB_CASE_*'], checks: [] },
      { id: 'inherits', prompt: 'true', checks: [] },
    ],
  };

  /** The gz-bench warning lines of a run's stderr, and the line where Vitest first reports a file. */
  function warningsOf(stderr: string): { warnings: string[]; beforeResults: boolean } {
    const lines = stderr.split('\n').map((line) => line.trim());
    const warnings = lines.filter((line) => line.startsWith('gz-bench: warning:'));
    const lastWarning = lines.findLastIndex((line) => line.startsWith('gz-bench: warning:'));
    const firstResult = lines.findIndex((line) => /^[✓×❯] /.test(line));
    return { warnings, beforeResults: firstResult === -1 || lastWarning < firstResult };
  }

  it('gz-bench run: one line for each, before the cases run, never a value', async ({ expect }) => {
    const where = await scene({ 'suite.json': SUITE, 'other.json': { ...SUITE, name: 'other' } });
    const result = await where.cli(
      [
        'run',
        'suite.json',
        'other.json',
        '--cmd',
        'true',
        '--json',
        '--sandbox',
        'none',
        '--allow-env',
        'GZB_SET_KEY,GZB_FLAG_UNSET',
      ],
      { GZB_SET_KEY: 'secret-value' },
    );
    expect(result.exitCode, output(result)).toBe(0);
    const { warnings, beforeResults } = warningsOf(String(result.stderr));
    expect(warnings).toEqual([
      UNSET('GZB_FLAG_UNSET', '--allow-env'),
      // Suite files by path: other.json, then suite.json.
      UNSET('GZB_UNSET_KEY', 'allowEnv of suite "other", allowEnv of suite "warn"'),
      NONE('GZB_CASE_*', 'allowEnv of case "own" in suite "other", allowEnv of case "own" in suite "warn"'),
    ]);
    expect(beforeResults).toBe(true);
    expect(`${result.stdout}${result.stderr}`).not.toContain('secret-value');
  });

  it('vitest run with the plugin: once per run, from the main process, whatever the workers', async ({ expect }) => {
    const where = await scene({
      ...pluginProjectFiles({ cmd: 'true', report: false, concurrency: 4 }),
      'bench/a.bench.json': SUITE,
      'bench/b.bench.json': { ...SUITE, name: 'b' },
      'bench/c.bench.json': { name: 'c', cases: [{ id: 'x', prompt: 'true', checks: [] }] },
    });
    const result = await runVitest(['run', 'bench/', '--maxWorkers', '3'], {
      cwd: where.project.dir,
      env: { TMPDIR: where.tmp, GZ_BENCH_ALLOW_ENV: 'GZB_RUN_UNSET', GZB_SET_KEY: 'secret-value' },
    });
    expect(result.exitCode, output(result)).toBe(0);
    const { warnings, beforeResults } = warningsOf(String(result.stderr));
    expect(warnings).toEqual([
      UNSET('GZB_RUN_UNSET', 'GZ_BENCH_ALLOW_ENV'),
      UNSET('GZB_UNSET_KEY', 'allowEnv of suite "warn", allowEnv of suite "b"'),
      NONE('GZB_CASE_*', 'allowEnv of case "own" in suite "warn", allowEnv of case "own" in suite "b"'),
    ]);
    expect(beforeResults).toBe(true);
    expect(`${result.stdout}${result.stderr}`).not.toContain('secret-value');
  });

  it('no warning when every name is set', async ({ expect }) => {
    const where = await scene({ 'suite.json': SUITE });
    const result = await where.cli(['run', 'suite.json', '--cmd', 'true', '--json', '--sandbox', 'none'], {
      GZB_SET_KEY: '1',
      GZB_UNSET_KEY: '',
      GZB_CASE_X: '1',
    });
    expect(result.exitCode, output(result)).toBe(0);
    expect(warningsOf(String(result.stderr)).warnings).toEqual([]);
  });
});

describe.concurrent('names and patterns that cannot be used', () => {
  const ONE_CASE = { name: 's', cases: [{ id: 'a', prompt: 'true', checks: [] }] };

  it.for<[string[], string]>([
    [['--allow-env', 'A*B'], 'gz-bench: --allow-env: "A*B": a pattern has one *, at its end (PREFIX_*)'],
    [['--allow-env', 'A,'], 'gz-bench: --allow-env: "A," has an empty name between commas'],
    [['--allow-env', '*'], 'gz-bench: --allow-env: "*" would pass the whole environment; name a prefix (PREFIX_*)'],
    [
      ['--allow-env', 'OPENAI_API_KEY,HOME'],
      'gz-bench: --allow-env: HOME is set by gz-bench: each case has a HOME of its own (realHome gives yours; an agent\'s "login" copies files from it), so it cannot be passed through',
    ],
    [
      ['--allow-env', 'GZ_BENCH_*'],
      'gz-bench: --allow-env: GZ_BENCH_* names only variables gz-bench sets itself, so it cannot be passed through',
    ],
  ])('gz-bench run %j: exit 2 and one line', async ([flags, message], { expect }) => {
    const where = await scene({ 'suite.json': ONE_CASE });
    const result = await where.cli(['run', 'suite.json', '--cmd', 'true', '--sandbox', 'none', ...flags]);
    expect(result.exitCode, output(result)).toBe(2);
    expect(String(result.stderr).split('\n')[0]).toBe(message);
    expect(String(result.stderr)).not.toMatch(/^\s+at /m);
  });

  it.for<[Record<string, unknown>, string]>([
    [
      { env: { TMPDIR: '/elsewhere' } },
      'invalid suite at env.TMPDIR: TMPDIR is set by gz-bench: each case has a temp directory of its own, so it cannot be set here',
    ],
    [
      { allowEnv: ['GZB_*_KEY'] },
      'invalid suite at allowEnv[0]: "GZB_*_KEY": a pattern has one *, at its end (PREFIX_*)',
    ],
  ])('a suite with %j: validate and run exit 2 with the path', async ([settings, message], { expect }) => {
    const where = await scene({ 'suite.json': { ...ONE_CASE, ...settings } });
    for (const args of [
      ['validate', 'suite.json'],
      ['run', 'suite.json', '--cmd', 'true', '--sandbox', 'none'],
    ]) {
      const result = await where.cli(args);
      expect(result.exitCode, output(result)).toBe(2);
      expect(String(result.stderr)).toContain(`gz-bench: suite.json: ${message}`);
    }
  });

  it('vitest run with GZ_BENCH_ALLOW_ENV it cannot use stops with the message alone', async ({ expect }) => {
    const where = await scene({ ...pluginProjectFiles({ cmd: 'true' }), 'bench/a.bench.json': ONE_CASE });
    const result = await runVitest(['run', 'bench/'], {
      cwd: where.project.dir,
      env: { TMPDIR: where.tmp, GZ_BENCH_ALLOW_ENV: 'OK,BAD-NAME' },
    });
    expect(result.exitCode, output(result)).toBe(1);
    const all = `${result.stdout}\n${result.stderr}`;
    expect(all).toContain('GZ_BENCH_ALLOW_ENV: "BAD-NAME" is not an environment variable name');
    expect(all).not.toMatch(/^\s+at /m);
  });
});

// An ordinary user's harness: its HOME, temp dir and project are nobody's, and root's privileges do
// not hide a git that cannot write its config or an env that does not get through.
describe.runIf(isRoot)('as nobody', () => {
  let checkout: ReachableCheckout;
  let bwrapForNobody = false;
  beforeAll(async () => {
    checkout = await reachableCheckout();
    const probe = await execa(
      'runuser',
      ['-u', 'nobody', '--', 'bwrap', '--ro-bind', '/', '/', '--unshare-pid', 'true'],
      {
        reject: false,
      },
    );
    bwrapForNobody = SANDBOX_WORKS && probe.exitCode === 0;
  });
  afterAll(() => checkout?.dispose());

  async function runAsNobody(mode: string): Promise<{ result: Result; where: Scene }> {
    const where = await scene();
    await openToOthers(where.project.dir);
    // The project's packages, like the CLI itself, come from the copy that nobody can reach.
    await rm(join(where.project.dir, 'node_modules'));
    await symlink(checkout.nodeModules, join(where.project.dir, 'node_modules'), 'dir');
    const home = join(where.project.dir, 'home');
    await mkdir(home);
    await writeEnvSuite(where);
    const plant = nodeCommand(join(checkout.dir, 'fixtures/agents/plant-git-hooks.mjs'));
    await where.project.write('git.json', { name: 'git', cases: [gitCase(plant)] });
    for (const path of [where.tmp, home]) await chown(path, NOBODY, NOBODY);
    const result = await runCli(
      [
        'run',
        'suite.json',
        'git.json',
        '--cmd',
        SCRIPT_CMD,
        '--json',
        '--sandbox',
        mode,
        '--allow-env',
        'GZB_FLAG_A,GZB_FLAG_B',
      ],
      {
        cwd: where.project.dir,
        env: { ...HARNESS, TMPDIR: where.tmp, HOME: home },
        // setpriv keeps the environment (runuser would set HOME to nobody's /nonexistent).
        via: ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'],
        cli: [process.execPath, checkout.cliScript],
      },
    );
    return { result, where };
  }

  it.for(['none', 'bwrap'])(
    'env, allowEnv and the agent’s git identity (sandbox %s)',
    async (mode, { expect, skip }) => {
      if (mode === 'bwrap' && !bwrapForNobody) skip();
      const { result, where } = await runAsNobody(mode);
      expect(result.exitCode, output(result)).toBe(0);
      const report = parseReport(result);
      expect(resultOf(report, 'vars').agent?.outputTail).toBe('flags=a,b p=1,2 key=k const=suite over=case secret=0\n');
      expect(resultOf(report, 'commit')).toMatchObject({ passed: true, sandbox: mode });
      expect(await where.leftovers()).toEqual({ files: [], processes: [] });
    },
  );
});
