import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import { runCase } from './run-case.js';

// Hidden verifiers reach the case area only after the agent, outside the workspace: the agent can
// neither find them nor leave anything they pick up as configuration.

const probe = await probeSandbox();
const SANDBOXES = [{ kind: 'none' as const }, ...(probe.available ? [{ kind: 'bwrap' as const }] : [])];
// The interpreter itself, not a version manager's shim, which needs the real HOME.
/** A Python that has pytest, for the test of a pytest cheat; undefined where there is none. */
const PYTHON = pythonWithPytest();

function pythonWithPytest(): string | undefined {
  try {
    const script = 'import pytest, sys; print(sys.executable)';
    return execFileSync('python3', ['-c', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

let root: string;
let suiteDir: string;
let areas: string;
let name: string;
let marker: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-verify-')));
  suiteDir = join(root, 'suite');
  areas = join(root, 'areas');
  await mkdir(areas);
  name = `hidden-${randomUUID()}`;
  marker = `gzmarker-${randomUUID()}`;
  await mkdir(join(suiteDir, 'verify'), { recursive: true });
  // Reads the agent's answer from the workspace; carries the marker a search would look for.
  await writeFile(
    join(suiteDir, 'verify', `${name}.sh`),
    `# ${marker}\ntest "$(cat "$GZ_BENCH_DIR/answer.txt")" = 42\n`,
  );
  await writeFile(
    join(suiteDir, 'verify', 'test_hidden.py'),
    `# ${marker}\nimport os\n\ndef test_answer():\n    with open(os.path.join(os.environ["GZ_BENCH_DIR"], "answer.txt")) as f:\n        assert f.read().strip() == "42"\n`,
  );
});
afterEach(() => removeTree(root));

function verifyCase(checks: Case['checks']): Case {
  return { id: 'c', prompt: 'p', verify: 'verify', checks };
}

describe.each(SANDBOXES)('hidden verifiers (sandbox $kind)', (sandbox) => {
  const options = () => ({ suiteDir, tmpDir: areas, sandbox, killGraceMs: 200 });

  it('are nowhere an agent searching the file system looks, and reach the checks after it', async () => {
    // A file the same search must find, so that finding nothing means something.
    const sentinel = `sentinel-${randomUUID()}`;
    await writeFile(join(root, sentinel), marker);
    // Without the sandbox the agent runs as the harness's user, who can read the suite's own files:
    // there only the case area and the rest of the host are searched (the README says so).
    const skipSource = sandbox.kind === 'none' ? `-o -path ${join(suiteDir, 'verify')}` : '';
    const grepSkip = sandbox.kind === 'none' ? `--exclude-dir=verify` : '';
    // /work holds other checkouts of large trees, none of which can hold a name made up for this run.
    const cmd = [
      `find / \\( -path /proc -o -path /sys -o -path /dev -o -path /work ${skipSource} \\) -prune -o \\( -name '${name}*' -o -name '${sentinel}' \\) -print 2>/dev/null > found.txt`,
      `grep -rl "$MARKER" ${root} ${grepSkip} 2>/dev/null | grep -v '/found.txt$' > grepped.txt`,
      'echo 42 > answer.txt',
    ].join('; ');
    const result = await runCase(
      {
        ...verifyCase([
          { kind: 'command', run: `sh {{verify}}/${name}.sh` },
          {
            kind: 'command',
            run: `test -f "$GZ_BENCH_VERIFY_DIR/${name}.sh" && test "$GZ_BENCH_VERIFY_DIR" = {{verify}}`,
          },
          { kind: 'command', run: `test "$GZ_BENCH_VERIFY_DIR" = "$(dirname "$GZ_BENCH_DIR")/verify"` },
        ]),
        env: { MARKER: marker },
      },
      { ...options(), cmd, keep: true },
    );
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
    const workspace = result.workspace ?? '';
    expect((await readFile(join(workspace, 'found.txt'), 'utf8')).trim().split('\n')).toEqual([join(root, sentinel)]);
    expect((await readFile(join(workspace, 'grepped.txt'), 'utf8')).trim().split('\n')).toEqual([join(root, sentinel)]);
  }, 240_000);

  it('fail the case when the hidden test fails, and go with the case area', async () => {
    const checks: Case['checks'] = [{ kind: 'command', run: `sh {{verify}}/${name}.sh` }];
    const wrong = await runCase(verifyCase(checks), { ...options(), cmd: 'echo 41 > answer.txt' });
    expect(wrong.passed).toBe(false);
    expect(wrong.error).toBe(`command exited with 1, expected 0 (no output): sh {{verify}}/${name}.sh`);
    const right = await runCase(verifyCase(checks), { ...options(), cmd: 'echo 42 > answer.txt' });
    expect(right.passed).toBe(true);
    expect(await readdir(areas)).toEqual([]);
  });

  it('inside the fixture repository stay out of the workspace', async () => {
    await mkdir(join(suiteDir, 'repo', 'tests'), { recursive: true });
    await writeFile(join(suiteDir, 'repo', 'src.txt'), 'x');
    await writeFile(join(suiteDir, 'repo', 'tests', 'check.sh'), 'test -f "$GZ_BENCH_DIR/src.txt"\n');
    const result = await runCase(
      {
        id: 'c',
        prompt: 'p',
        repo: 'repo',
        verify: 'repo/tests',
        protect: ['src.txt'],
        checks: [{ kind: 'command', run: 'sh {{verify}}/check.sh' }],
      },
      { ...options(), cmd: 'ls -A > listing.txt; ls -A ../ > area.txt', keep: true },
    );
    expect(result.error).toBeUndefined();
    expect(result.fixtureSkipped).toEqual([{ path: 'tests', reason: 'verifier' }]);
    const workspace = result.workspace ?? '';
    expect((await readFile(join(workspace, 'listing.txt'), 'utf8')).split('\n')).not.toContain('tests');
    expect((await readFile(join(workspace, 'area.txt'), 'utf8')).split('\n')).not.toContain('verify');
  });

  // Skipped, with its name saying why, where no python3 with pytest is installed.
  it.skipIf(PYTHON === undefined)(
    'are not influenced by configuration the agent leaves in the workspace or the case area (needs pytest)',
    async () => {
      // The classic cheat: a conftest.py that turns every failing test into a pass, beside pytest.ini,
      // a module shadowing pytest, and the same planted above the workspace and where the verifiers go.
      const cheat = [
        'import pytest',
        '@pytest.hookimpl(hookwrapper=True)',
        'def pytest_runtest_makereport(item, call):',
        '    outcome = yield',
        '    report = outcome.get_result()',
        '    report.outcome = "passed"',
      ].join('\\n');
      const plant = (dir: string) =>
        `mkdir -p ${dir} && printf '${cheat}\\n' > ${dir}/conftest.py && printf '[pytest]\\n' > ${dir}/pytest.ini`;
      const cmd = [
        'echo 41 > answer.txt',
        plant('.'),
        'echo "raise SystemExit(0)" > pytest.py',
        plant('..'),
        plant('../verify'),
        'cp conftest.py ../verify/conftest.py',
      ].join(' && ');
      const pytest = `cd {{verify}} && "${PYTHON}" -m pytest -q -p no:cacheprovider test_hidden.py`;
      const hidden = await runCase(verifyCase([{ kind: 'command', run: pytest }]), { ...options(), cmd });
      // The failure quotes the hidden test's own verdict.
      expect(hidden.error).toBe(
        "command exited with 1, expected 0: FAILED test_hidden.py::test_answer - AssertionError: assert '41' == '42'",
      );
      expect(hidden.checkResults[0]?.outputTail).toContain('1 failed');
      // Run from the workspace on the verifier's path, pytest does not reach into the workspace either.
      const fromWorkspace = `"${PYTHON}" -m pytest -q -p no:cacheprovider {{verify}}/test_hidden.py`;
      const fromHere = await runCase(
        { ...verifyCase([{ kind: 'command', run: fromWorkspace }]) },
        { ...options(), cmd: cmd.replace(' && echo "raise SystemExit(0)" > pytest.py', '') },
      );
      expect(fromHere.error).toMatch(
        /^command exited with 1, expected 0: FAILED \S*test_hidden\.py::test_answer - AssertionError: assert '41' ==/,
      );

      // The same cheat against the same test in the workspace passes: the planted files are live.
      const exposed = await runCase(
        {
          id: 'exposed',
          prompt: 'p',
          setup: [`cp ${join(suiteDir, 'verify', 'test_hidden.py')} .`],
          checks: [{ kind: 'command', run: `"${PYTHON}" -m pytest -q -p no:cacheprovider test_hidden.py` }],
        },
        { ...options(), cmd: cmd.replace(' && echo "raise SystemExit(0)" > pytest.py', '') },
      );
      expect(exposed.passed).toBe(true);
    },
    60_000,
  );
});
