import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport, resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';

// A failed `command` check says what failed in the check's own words (the failed test, the
// assertion), in the table, the report and the Vitest error; a check that runs out of its own time
// (`checkTimeoutSec`) fails saying so, while the agent keeps its `timeoutSec`.

const cleanup = cleanupAfterAll();

/** What pytest prints for one failed test, as a script the check runs. */
const FAKE_PYTEST = [
  "echo '============================= test session starts =============================='",
  "echo 'collected 2 items'",
  "echo 'test_add.py .F                                                           [100%]'",
  "echo 'E       assert 3 == 4'",
  "echo '=========================== short test summary info ============================'",
  "echo 'FAILED test_add.py::test_add - assert 3 == 4'",
  "echo '========================= 1 failed, 1 passed in 0.03s =========================='",
  'exit 1',
  '',
].join('\n');

const MESSAGE = 'command exited with 1, expected 0: FAILED test_add.py::test_add - assert 3 == 4';

const SUITE = {
  name: 'readable',
  checkTimeoutSec: 1,
  cases: [
    {
      id: 'pytest-fails',
      prompt: 'p',
      setup: [`cat > run-tests.sh <<'EOF'\n${FAKE_PYTEST}EOF`],
      checks: [{ kind: 'command', run: 'TEST_DIR=/tests bash run-tests.sh' }],
    },
    {
      id: 'check-hangs',
      prompt: 'p',
      checks: [{ kind: 'command', run: "echo 'test_slow.py::test_waits'; exec sleep 30" }],
    },
  ],
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

describe('readable command check failures', () => {
  for (const sandbox of ['none', 'bwrap']) {
    it(`gz-bench run --sandbox ${sandbox}: the report and the table quote the test runner`, async ({ expect }) => {
      const temp = await cleanup.project({ 'suite.json': SUITE });
      const args = ['run', '--sandbox', sandbox, 'suite.json', '--cmd', 'sleep 1.5'];
      const json = await runCli([...args, '--json'], { cwd: temp.dir });
      expect(json.exitCode, output(json)).toBe(1);
      const report = JSON.parse(String(json.stdout)) as Report;
      const failed = resultOf(report, 'pytest-fails');
      expect(failed).toMatchObject({ outcome: 'failed', failedStep: 'check', error: MESSAGE });
      expect(failed.checkResults[0]).toMatchObject({ run: 'TEST_DIR=/tests bash run-tests.sh', message: MESSAGE });
      // The check had its own second; the agent, which slept longer, its own 120.
      expect(resultOf(report, 'check-hangs')).toMatchObject({
        outcome: 'failed',
        error: 'command timed out after 1s: test_slow.py::test_waits',
        agent: { timedOut: false, exitCode: 0 },
        checkResults: [{ timedOut: true }],
      });

      const table = await runCli(args, { cwd: temp.dir });
      expect(table.exitCode, output(table)).toBe(1);
      expect(String(table.stdout)).toMatch(
        /pytest-fails\s+FAIL\s+0\/1\s+\S+\s+command exited with 1, expected 0: FAILED test_add/,
      );
    });
  }

  it('the Vitest error of the case says it too', async ({ expect }) => {
    const temp = await cleanup.project({
      ...pluginProjectFiles({ cmd: 'true', report: 'out/report.json' }),
      'readable.bench.json': { ...SUITE, cases: SUITE.cases.slice(0, 1) },
    });
    const result = await runVitest(['run'], { cwd: temp.dir });
    expect(result.exitCode, output(result)).toBe(1);
    expect(String(result.stderr)).toContain(`CaseFailure: ${MESSAGE}`);
    expect(resultOf(await readReport(temp.dir, 'out/report.json'), 'pytest-fails').error).toBe(MESSAGE);
  });
});
