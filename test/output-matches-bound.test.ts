import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Report } from '@gz-bench/core';
import type { Result, ResultPromise } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { processesWithEnv } from './support/processes.js';
import { resultOf } from './support/report.js';
import { runCli } from './support/run.js';
import { sh } from './support/shell.js';
import { suite } from './support/suite.js';

// A pattern that backtracks catastrophically: against forty `a`s and a `!` it takes 2^40 steps to fail.
const BOMB = '^(a+)+$';
const BOMB_OUTPUT = `${'a'.repeat(40)}!`;
/** The "agent" is the prompt, run as a shell script. */
const SCRIPT_CMD = 'sh -c {{prompt}}';

const { project } = cleanupAfterAll();

/** A project with a private TMPDIR, by which the run's processes can be found, and a way to write suite.json. */
async function projectWithTmp(): Promise<{ dir: string; tmp: string; write(spec: object): Promise<string> }> {
  const temp = await project();
  const tmp = join(temp.dir, 'tmp');
  await mkdir(tmp);
  return { dir: temp.dir, tmp, write: (spec) => temp.write('suite.json', spec) };
}

/** Waits until no process carries the run's TMPDIR (Vitest's workers, their threads' processes). */
async function leftRunning(tmp: string, timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = await processesWithEnv('TMPDIR', tmp);
    if (pids.length === 0 || Date.now() > deadline) return pids;
    await delay(100);
  }
}

describe('an outputMatches pattern that backtracks catastrophically', () => {
  it('fails its case with an out-of-time message and the run goes on to the next case', async ({ expect }) => {
    const { dir, tmp, write } = await projectWithTmp();
    await write(
      suite('regex-bomb', [
        {
          id: 'bomb',
          prompt: `printf ${sh(BOMB_OUTPUT)}`,
          timeoutSec: 2,
          checks: [{ kind: 'outputMatches', pattern: BOMB }],
        },
        { id: 'after', prompt: 'echo done', checks: [{ kind: 'outputMatches', pattern: '^done$', flags: 'm' }] },
      ]),
    );
    const result = await runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', SCRIPT_CMD, '--json'], {
      cwd: dir,
      env: { TMPDIR: tmp },
    });
    expect(result.exitCode, String(result.stderr)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as Report;
    const bomb = resultOf(report, 'bomb');
    const message = `output did not finish matching /${BOMB}/ within 2s (the pattern backtracks too much); simplify the pattern`;
    expect(bomb).toMatchObject({ passed: false, failedStep: 'check', error: message });
    expect(bomb.checkResults).toEqual([{ kind: 'outputMatches', pattern: BOMB, passed: false, message }]);
    expect(resultOf(report, 'after')).toMatchObject({ passed: true });
    expect(await leftRunning(tmp)).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  });

  describe('when SIGTERM arrives while it is matching', () => {
    let outcome: { result: Result; exitedAfterMs: number; tmp: string } | undefined;
    const run = async () => {
      if (outcome) return outcome;
      const { dir, tmp, write } = await projectWithTmp();
      const agentDone = join(dir, 'agent-done');
      await write(
        suite('regex-bomb-interrupted', [
          {
            id: 'bomb',
            // The marker says the agent is done and the checks are about to start.
            prompt: `printf ${sh(BOMB_OUTPUT)}; touch ${sh(agentDone)}`,
            // Far longer than the test: only the interrupt can end the match in time.
            timeoutSec: 600,
            checks: [{ kind: 'outputMatches', pattern: BOMB }],
          },
        ]),
      );
      const cli = runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', SCRIPT_CMD, '--json'], {
        cwd: dir,
        env: { TMPDIR: tmp },
      }) as ResultPromise;
      const deadline = Date.now() + 30_000;
      while (!existsSync(agentDone) && Date.now() < deadline) await delay(50);
      // Time for the agent to exit and the check to start matching.
      await delay(1500);
      const interruptedAt = Date.now();
      cli.kill('SIGTERM');
      const result = await cli;
      outcome = { result, exitedAfterMs: Date.now() - interruptedAt, tmp };
      return outcome;
    };

    it('ends the run promptly with exit 143 and the interrupted check in the report', async ({ expect }) => {
      const { result, exitedAfterMs } = await run();
      expect(result.exitCode, String(result.stderr)).toBe(143);
      expect(result.stderr).toContain('SIGTERM received');
      expect(exitedAfterMs).toBeLessThan(10_000);
      const report = JSON.parse(String(result.stdout)) as Report;
      const message = `output matching /${BOMB}/ was interrupted`;
      // Cut short by the signal: not run, ready for a resume, with the check that was interrupted.
      expect(resultOf(report, 'bomb')).toMatchObject({
        passed: false,
        outcome: 'notRun',
        error: `the case did not finish: the run was interrupted (${message})`,
      });
      expect(resultOf(report, 'bomb').checkResults).toEqual([
        { kind: 'outputMatches', pattern: BOMB, passed: false, message },
      ]);
    });

    it('leaves no process and no temp directory behind', async ({ expect }) => {
      const { tmp } = await run();
      expect(await leftRunning(tmp)).toEqual([]);
      expect(await readdir(tmp)).toEqual([]);
    });
  });
});
