import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcessResult } from '../process/types.js';
import { COMMAND_OUTPUT_TAIL_CHARS, commandCheck } from './command.js';
import { noRegexMatching } from './test-support/inline-regex-matcher.js';
import type { CheckContext, CheckFs } from './types.js';

/**
 * Runs a real `/bin/sh -c` in `cwd`, shaped as a ProcessResult. A stand-in for the process layer,
 * which is written separately: only the fields the command check reads need to be faithful.
 */
function shellRunner(cwd: string, timeoutMs = 10_000) {
  return async (command: string): Promise<ProcessResult> => {
    const started = Date.now();
    const child = spawnSync('/bin/sh', ['-c', command], { cwd, timeout: timeoutMs, encoding: 'utf8' });
    const error = child.error as NodeJS.ErrnoException | undefined;
    const timedOut = error?.code === 'ETIMEDOUT';
    const text = `${child.stdout ?? ''}${child.stderr ?? ''}`;
    return {
      exitCode: child.status,
      signal: child.signal,
      timedOut,
      aborted: false,
      durationMs: Date.now() - started,
      output: { text, totalBytes: Buffer.byteLength(text), droppedBytes: 0 },
      ...(error !== undefined && !timedOut && { spawnError: error.message }),
    };
  };
}

const workspace = mkdtempSync(join(tmpdir(), 'gz-bench-command-check-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function contextIn(cwd: string, timeoutMs?: number): CheckContext {
  const noFs = new Proxy({} as CheckFs, {
    get: () => () => Promise.reject(new Error('command checks do not use the filesystem')),
  });
  return {
    workspace: cwd,
    fs: noFs,
    output: '',
    runCommand: shellRunner(cwd, timeoutMs),
    matchRegex: noRegexMatching,
    ...(timeoutMs !== undefined && { commandTimeoutMs: timeoutMs }),
  };
}

const check = (run: string, expectExit?: number) => ({
  kind: 'command' as const,
  run,
  ...(expectExit !== undefined && { expectExit }),
});

describe('command', () => {
  it('passes on exit 0 and records the exit code and output', async () => {
    await expect(commandCheck.evaluate(check('echo out; echo err >&2'), contextIn(workspace))).resolves.toEqual({
      passed: true,
      details: { exitCode: 0, timedOut: false, outputTail: 'out\nerr\n' },
    });
  });

  it('runs in the workspace', async () => {
    writeFileSync(join(workspace, 'marker.txt'), 'here');
    await expect(commandCheck.evaluate(check('test -f marker.txt'), contextIn(workspace))).resolves.toMatchObject({
      passed: true,
    });
  });

  it('passes when the exit code equals expectExit', async () => {
    await expect(commandCheck.evaluate(check('exit 3', 3), contextIn(workspace))).resolves.toMatchObject({
      passed: true,
      details: { exitCode: 3 },
    });
  });

  it('fails on another exit code, naming both', async () => {
    await expect(commandCheck.evaluate(check('echo broken; exit 1'), contextIn(workspace))).resolves.toEqual({
      passed: false,
      message: 'command exited with 1, expected 0: broken',
      details: { exitCode: 1, timedOut: false, outputTail: 'broken\n' },
    });
    await expect(commandCheck.evaluate(check('true', 3), contextIn(workspace))).resolves.toMatchObject({
      passed: false,
      message: 'command exited with 0, expected 3 (no output): true',
    });
  });

  it('fails when the command times out', async () => {
    // `exec` so the shell itself is the sleeping process and the timeout leaves no orphan behind.
    await expect(commandCheck.evaluate(check('exec sleep 5'), contextIn(workspace, 200))).resolves.toMatchObject({
      passed: false,
      message: 'command timed out after 0.2s (no output): exec sleep 5',
      details: { exitCode: null, timedOut: true },
    });
  });

  it('says how long a timed-out command had, and what it said last', async () => {
    const run = "echo 'collected 1 item'; echo 'test_slow.py::test_waits'; exec sleep 5";
    await expect(commandCheck.evaluate(check(run), contextIn(workspace, 300))).resolves.toMatchObject({
      passed: false,
      message: 'command timed out after 0.3s: test_slow.py::test_waits',
    });
  });

  it("says what failed in the test runner's own words, not the command line", async () => {
    const script = join(workspace, 'run-tests.sh');
    writeFileSync(
      script,
      [
        "echo '=========================== short test summary info ============================'",
        "echo 'FAILED test_add.py::test_add - AssertionError: assert 3 == 4'",
        "echo '========================= 1 failed, 1 passed in 0.03s =========================='",
        'exit 1',
        '',
      ].join('\n'),
    );
    await expect(
      commandCheck.evaluate(check('TEST_DIR=/x bash run-tests.sh'), contextIn(workspace)),
    ).resolves.toMatchObject({
      passed: false,
      message: 'command exited with 1, expected 0: FAILED test_add.py::test_add - AssertionError: assert 3 == 4',
    });
  });

  it('fails when a signal kills the command', async () => {
    await expect(commandCheck.evaluate(check('kill -9 $$'), contextIn(workspace))).resolves.toMatchObject({
      passed: false,
      message: 'command was killed by SIGKILL (no output): kill -9 $$',
      details: { exitCode: null, timedOut: false },
    });
  });

  it('fails when the command cannot start', async () => {
    const outcome = await commandCheck.evaluate(check('true'), contextIn(join(workspace, 'gone')));
    expect(outcome).toMatchObject({ passed: false, details: { exitCode: null, timedOut: false } });
    expect(outcome.message).toMatch(/^command could not start: true \(.*ENOENT.*\)$/);
  });

  it('keeps only the tail of long output', async () => {
    const outcome = await commandCheck.evaluate(
      check(`printf 'a%.0s' $(seq 3000); printf END; exit 1`),
      contextIn(workspace),
    );
    const tail = outcome.details?.outputTail ?? '';
    expect(tail).toHaveLength(COMMAND_OUTPUT_TAIL_CHARS);
    expect(tail.startsWith('…')).toBe(true);
    expect(tail.endsWith('aEND')).toBe(true);
  });

  it('names an abort and a signal-less, code-less end', async () => {
    const base: ProcessResult = {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      durationMs: 1,
      output: { text: '', totalBytes: 0, droppedBytes: 0 },
    };
    const context = (result: ProcessResult): CheckContext => ({
      ...contextIn(workspace),
      runCommand: async () => result,
    });
    await expect(
      commandCheck.evaluate(check('x'), context({ ...base, aborted: true, signal: 'SIGTERM' })),
    ).resolves.toMatchObject({ passed: false, message: 'command was aborted: x' });
    await expect(commandCheck.evaluate(check('x'), context(base))).resolves.toMatchObject({
      passed: false,
      message: 'command ended without an exit code (no output): x',
    });
  });
});
