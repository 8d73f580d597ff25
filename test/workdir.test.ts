import { existsSync } from 'node:fs';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { resultOf } from './support/report.js';
import { runCli } from './support/run.js';

// A suite's `workdir` shows the workspace at a fixed path inside the bwrap sandbox, for setup, the
// agent and command checks, as tasks of public benchmarks assume (`/app`); without the sandbox it is
// refused before anything runs.

const cleanup = cleanupAfterAll();
const WORKDIR = `/gz-bench-app-${process.pid}`;

const SUITE = {
  name: 'fixed',
  workdir: WORKDIR,
  cases: [
    {
      id: 'at-workdir',
      prompt: 'p',
      setup: ['pwd > setup-pwd'],
      checks: [
        { kind: 'fileContains', path: 'setup-pwd', text: WORKDIR },
        { kind: 'fileContains', path: 'agent-pwd', text: `${WORKDIR} ${WORKDIR}` },
        { kind: 'command', run: `test "$(pwd)" = ${WORKDIR} && test -f ${WORKDIR}/agent-pwd` },
      ],
    },
  ],
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

describe('workdir', () => {
  it('setup, the agent ({{dir}} too) and checks all run at the workdir in the sandbox', async ({ expect }) => {
    const temp = await cleanup.project({ 'suite.json': SUITE });
    const result = await runCli(
      ['run', '--sandbox', 'bwrap', 'suite.json', '--cmd', 'echo "$(pwd) {{dir}}" > agent-pwd', '--json'],
      { cwd: temp.dir },
    );
    expect(result.exitCode, output(result)).toBe(0);
    expect(resultOf(JSON.parse(String(result.stdout)) as Report, 'at-workdir')).toMatchObject({
      passed: true,
      sandbox: 'bwrap',
    });
    // Only inside the sandbox.
    expect(existsSync(WORKDIR)).toBe(false);
  });

  it('is refused with --sandbox none, before anything runs', async ({ expect }) => {
    const temp = await cleanup.project({ 'suite.json': SUITE });
    const result = await runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', 'true'], { cwd: temp.dir });
    expect(result.exitCode, output(result)).toBe(2);
    expect(String(result.stderr).split('\n')[0]).toBe(
      `gz-bench: suite.json: case "at-workdir": workdir "${WORKDIR}" needs the bwrap sandbox; run with --sandbox bwrap (or auto)`,
    );
    expect(result.stdout).toBe('');
  });

  it('refuses a relative workdir as an invalid suite', async ({ expect }) => {
    const temp = await cleanup.project({ 'suite.json': { ...SUITE, workdir: 'app' } });
    const result = await runCli(['run', 'suite.json', '--cmd', 'true'], { cwd: temp.dir });
    expect(result.exitCode, output(result)).toBe(2);
    expect(String(result.stderr)).toContain(
      'suite.json: invalid suite at workdir: workdir must be an absolute path, such as "/app"; got "app"',
    );
  });
});
