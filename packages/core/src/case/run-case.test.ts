import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import type { Case } from '../suite/schema.js';
import { caseBudgetMs, caseStepTimeoutsMs, caseTimeoutSec, runCase } from './run-case.js';

let outside: string;
beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), 'gz-bench-run-case-'));
});
afterEach(async () => {
  await rm(outside, { recursive: true, force: true });
});

const base = (overrides: Partial<Case>): Case => ({ id: 'c', prompt: 'do it', checks: [], ...overrides });

describe('runCase', () => {
  it('fails the case as a harness fault, with the reason, when its area cannot be created', async () => {
    const missing = join(outside, 'no-such-tmp');
    const result = await runCase(base({ checks: [{ kind: 'fileExists', path: 'x' }] }), {
      cmd: `touch '${outside}/agent-ran'`,
      tmpDir: missing,
    });
    expect(result).toEqual({
      id: 'c',
      passed: false,
      outcome: 'harnessError',
      durationMs: expect.any(Number),
      checkResults: [{ kind: 'fileExists', path: 'x', passed: false, skipped: true }],
      error: `could not create the case area: the temp directory ${missing} does not exist; create it or point TMPDIR at a writable directory`,
      failedStep: 'harness',
      sandbox: 'none',
    });
    expect(existsSync(join(outside, 'agent-ran'))).toBe(false);
  });

  it('runs setup, then the agent in the workspace, then the checks, and removes the workspace', async () => {
    const result = await runCase(
      base({
        setup: ['echo from-setup > setup.txt'],
        checks: [
          { kind: 'fileContains', path: 'setup.txt', text: 'from-setup' },
          { kind: 'fileContains', path: 'agent.txt', text: 'do it' },
          { kind: 'outputMatches', pattern: '^agent says hi$', flags: 'm' },
        ],
      }),
      { cmd: `printf '%s' "{{prompt}}" > agent.txt; echo agent says hi; pwd > '${outside}/cwd'` },
    );
    expect(result).toMatchObject({
      id: 'c',
      passed: true,
      checkResults: [{ passed: true }, { passed: true }, { passed: true }],
    });
    expect(result.error).toBeUndefined();
    expect(result.agent).toMatchObject({ exitCode: 0, timedOut: false, outputTail: 'agent says hi\n' });
    const workspace = (await readFile(join(outside, 'cwd'), 'utf8')).trim();
    expect(basename(workspace)).toBe('workspace');
    expect(basename(dirname(workspace))).toMatch(/^gz-bench-/);
    expect(existsSync(dirname(workspace))).toBe(false);
  });

  it('gives the commands a minimal environment: the prompt, the workspace, their own HOME and TMPDIR, and only allowed variables', async () => {
    const source = {
      PATH: process.env.PATH,
      HOME: '/home/harness',
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'sk-secret',
      GH_TOKEN: 'ghp-secret',
      VITEST_POOL_ID: '1',
      GZ_BENCH_CMD: 'x',
    };
    const result = await runCase(base({ prompt: 'p "q" $(r)', allowEnv: ['GH_TOKEN'] }), {
      cmd: `env > '${outside}/env'; [ "$GZ_BENCH_DIR" = "$(pwd)" ] && [ "$GZ_BENCH_DIR" = {{dir}} ]`,
      env: source,
      allowEnv: ['OPENAI_API_KEY'],
    });
    expect(result.agent?.exitCode).toBe(0);
    const env = Object.fromEntries(
      (await readFile(join(outside, 'env'), 'utf8'))
        .trim()
        .split('\n')
        .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const area = dirname(env.GZ_BENCH_DIR ?? '');
    expect(env).toMatchObject({
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'sk-secret',
      GH_TOKEN: 'ghp-secret',
      HOME: join(area, 'home'),
      TMPDIR: join(area, 'tmp'),
    });
    expect(env.GZ_BENCH_CASE_TOKEN).toMatch(/^[0-9a-f]{32}$/);
    expect(env.GZ_BENCH_PROMPT).toBe('p "q" $(r)');
    expect(env.GZ_BENCH_PROMPT_FILE).toBe(join(area, 'prompt.txt'));
    expect(env).not.toHaveProperty('VITEST_POOL_ID');
    expect(env).not.toHaveProperty('GZ_BENCH_CMD');
    // Variables the shell sets itself (PWD, SHLVL, _) aside, nothing else of the harness gets through.
    const harnessOnly = Object.keys(env).filter(
      (name) =>
        !/^(PWD|OLDPWD|SHLVL|_|GIT_.*|GZ_BENCH_(PROMPT|PROMPT_FILE|DIR|CASE_TOKEN)|PATH|LANG|HOME|TMPDIR|TMP|TEMP|SHELL|OPENAI_API_KEY|GH_TOKEN)$/.test(
          name,
        ),
    );
    expect(harnessOnly).toEqual([]);
  });

  it('gives the real HOME only when the case asks for it', async () => {
    const result = await runCase(base({ realHome: true }), {
      cmd: `printf %s "$HOME" > '${outside}/home'`,
      env: { PATH: process.env.PATH, HOME: '/home/harness' },
    });
    expect(result.passed).toBe(true);
    expect(await readFile(join(outside, 'home'), 'utf8')).toBe('/home/harness');
  });

  it('records the agent exit code without asserting it', async () => {
    const result = await runCase(base({}), { cmd: 'exit 7' });
    expect(result).toMatchObject({ passed: true, agent: { exitCode: 7 } });
  });

  it('fails at the first failing setup command, running neither the rest nor the agent', async () => {
    const result = await runCase(
      base({
        setup: ['true', 'exit 3', `touch '${outside}/later-setup'`],
        checks: [{ kind: 'fileExists', path: 'x' }],
      }),
      { cmd: `touch '${outside}/agent-ran'` },
    );
    expect(result).toMatchObject({
      passed: false,
      failedStep: 'setup',
      error: 'setup command 2 exited with 3: exit 3',
      checkResults: [{ kind: 'fileExists', path: 'x', passed: false, skipped: true }],
    });
    expect(result.agent).toBeUndefined();
    expect(existsSync(join(outside, 'later-setup'))).toBe(false);
    expect(existsSync(join(outside, 'agent-ran'))).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'fails a case whose setup line is too long for exec, saying which limit',
    async () => {
      const line = `: ${'z'.repeat(200_000)}`;
      const result = await runCase(base({ setup: [line] }), { cmd: `touch '${outside}/agent-ran'` });
      expect(result).toMatchObject({ passed: false, failedStep: 'setup' });
      expect(result.error).toBe(
        `setup command 1 could not start (spawn E2BIG: the command line is 200002 bytes, over Linux's 128 KiB limit for one argument): ${line}`,
      );
      expect(existsSync(join(outside, 'agent-ran'))).toBe(false);
    },
  );

  it('fails a case whose agent times out, skipping its checks', async () => {
    const result = await runCase(base({ timeoutSec: 0.3, checks: [{ kind: 'fileExists', path: 'x' }] }), {
      cmd: 'sleep 30',
      killGraceMs: 200,
    });
    expect(result).toMatchObject({
      passed: false,
      failedStep: 'agent',
      error: 'agent command timed out after 0.3s',
      agent: { timedOut: true },
      checkResults: [{ skipped: true }],
    });
  });

  it('lets the timeout option override the case timeout', async () => {
    const result = await runCase(base({ timeoutSec: 60 }), { cmd: 'sleep 30', timeoutSec: 0.2, killGraceMs: 100 });
    expect(result.error).toBe('agent command timed out after 0.2s');
  });

  it('stops checks at the first failure and reports the rest as skipped', async () => {
    const result = await runCase(
      base({
        checks: [
          { kind: 'fileExists', path: 'a.txt' },
          { kind: 'fileExists', path: 'world.txt' },
          { kind: 'command', run: `touch '${outside}/check-ran'` },
        ],
      }),
      { cmd: 'touch a.txt' },
    );
    expect(result.error).toBe('file does not exist: world.txt');
    expect(result.failedStep).toBe('check');
    expect(result.checkResults.map((check) => [check.passed, check.skipped])).toEqual([
      [true, undefined],
      [false, undefined],
      [false, true],
    ]);
    expect(existsSync(join(outside, 'check-ran'))).toBe(false);
  });

  it('keeps the case files when asked, reports the workspace path, and marks the area kept', async () => {
    const result = await runCase(base({}), { cmd: 'echo kept > file.txt', keep: true, tmpDir: outside });
    expect(result.workspace).toBeDefined();
    const workspace = result.workspace as string;
    expect(dirname(dirname(workspace))).toBe(outside);
    expect(await readFile(join(workspace, 'file.txt'), 'utf8')).toBe('kept\n');
    // Marked kept, a later run's clean-up of stale areas leaves it alone.
    // No check runs a command, so the checks' HOME and temp dir were never made.
    expect((await readdir(dirname(workspace))).sort()).toEqual(['home', 'kept.json', 'prompt.txt', 'tmp', 'workspace']);
  });

  it('makes the checks their own HOME and temp dir only when a check runs a command', async () => {
    const areaOf = (result: { workspace?: string }) => dirname(result.workspace as string);
    const fileChecks = await runCase(base({ checks: [{ kind: 'fileExists', path: 'file.txt' }] }), {
      cmd: 'echo kept > file.txt',
      keep: true,
      tmpDir: outside,
    });
    expect(fileChecks.passed).toBe(true);
    expect(await readdir(areaOf(fileChecks))).not.toContain('check-home');
    const commandCheck = await runCase(
      base({ checks: [{ kind: 'command', run: 'test "$HOME" != "$GZ_BENCH_AGENT_HOME"' }] }),
      {
        cmd: 'echo kept > file.txt',
        keep: true,
        tmpDir: outside,
      },
    );
    expect(commandCheck.passed).toBe(true);
    expect(await readdir(areaOf(commandCheck))).toEqual(expect.arrayContaining(['check-home', 'check-tmp']));
  });

  it('ends the agent when the signal aborts, and says the run was interrupted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await runCase(base({}), { cmd: 'sleep 30', signal: controller.signal, killGraceMs: 100 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ passed: false, failedStep: 'harness', error: 'agent command was interrupted' });
  });

  it('rejects a template with an unknown placeholder before creating anything', async () => {
    await expect(runCase(base({}), { cmd: 'agent {{promt}}' })).rejects.toThrow('unknown placeholder {{promt}}');
  });
});

describe('case limits', () => {
  it('uses the override, then the case timeout, then the default of 120 s', () => {
    expect(caseTimeoutSec(base({ timeoutSec: 5 }), 2)).toBe(2);
    expect(caseTimeoutSec(base({ timeoutSec: 5 }))).toBe(5);
    expect(caseTimeoutSec(base({}))).toBe(120);
  });

  it('budgets every command of a case, so the runner timeout never fires first', () => {
    const testCase = base({ timeoutSec: 10, setup: ['a', 'b'], checks: [{ kind: 'command', run: 'c' }] });
    // Two setup commands, the agent and one command check, each with its timeout and kill grace.
    expect(caseBudgetMs(testCase)).toBeGreaterThanOrEqual(4 * (10_000 + 2000));
  });

  it('budgets every regular expression a check tests, which is bounded by the same timeout', () => {
    const withoutRegex = base({ timeoutSec: 10, checks: [{ kind: 'fileExists', path: 'x' }] });
    const withRegex = base({ timeoutSec: 10, checks: [{ kind: 'outputMatches', pattern: '^(a+)+$' }] });
    expect(caseBudgetMs(withRegex) - caseBudgetMs(withoutRegex)).toBeGreaterThanOrEqual(10_000);
  });

  it("bounds setup and checks by their own timeouts, else by the agent's; an override bounds them all", () => {
    expect(caseStepTimeoutsMs(base({ timeoutSec: 10, setupTimeoutSec: 300, checkTimeoutSec: 2 }))).toEqual({
      agent: 10_000,
      setup: 300_000,
      check: 2000,
    });
    expect(caseStepTimeoutsMs(base({ timeoutSec: 10 }))).toEqual({ agent: 10_000, setup: 10_000, check: 10_000 });
    expect(caseStepTimeoutsMs(base({ setupTimeoutSec: 300, checkTimeoutSec: 2 }), 7)).toEqual({
      agent: 7000,
      setup: 7000,
      check: 7000,
    });
  });

  it("budgets setup and checks by their own timeouts, longer or shorter than the agent's", () => {
    const steps = { setup: ['a', 'b'], checks: [{ kind: 'command' as const, run: 'c' }] };
    const plain = caseBudgetMs(base({ timeoutSec: 10, ...steps }));
    const longSetup = caseBudgetMs(base({ timeoutSec: 10, setupTimeoutSec: 600, ...steps }));
    const longCheck = caseBudgetMs(base({ timeoutSec: 10, checkTimeoutSec: 600, ...steps }));
    // Two setup commands of 600 s each instead of 10 s; one check likewise.
    expect(longSetup - plain).toBe(2 * 590_000);
    expect(longCheck - plain).toBe(590_000);
    expect(caseBudgetMs(base({ timeoutSec: 600, checkTimeoutSec: 1, ...steps }))).toBeGreaterThanOrEqual(
      3 * 600_000 + 1000,
    );
  });

  it('never exceeds the longest delay a timer can wait, which would make it fire at once', () => {
    const testCase = base({ timeoutSec: 86_400, setup: Array.from({ length: 30 }, () => 'true') });
    expect(caseBudgetMs(testCase)).toBe(2 ** 31 - 1);
  });
});

describe('runCase with timeouts per step', () => {
  it('bounds setup by setupTimeoutSec, and says so', async () => {
    const result = await runCase(base({ timeoutSec: 30, setupTimeoutSec: 0.3, setup: ['exec sleep 10'] }), {
      cmd: 'true',
    });
    expect(result).toMatchObject({
      outcome: 'harnessError',
      failedStep: 'setup',
      error: 'setup command 1 timed out after 0.3s: exec sleep 10',
    });
  });

  it('bounds a command check by checkTimeoutSec: a failed check that says it timed out, not the agent', async () => {
    const checks = [{ kind: 'command' as const, run: "echo 'test_slow.py::test_waits'; exec sleep 10" }];
    const result = await runCase(base({ timeoutSec: 30, checkTimeoutSec: 0.5, checks }), {
      cmd: 'sleep 1; echo agent done',
    });
    expect(result).toMatchObject({
      outcome: 'failed',
      failedStep: 'check',
      error: 'command timed out after 0.5s: test_slow.py::test_waits',
      checkResults: [{ passed: false, timedOut: true }],
      // The agent had its own 30 s, more than the check's 0.5 s.
      agent: { exitCode: 0, timedOut: false },
    });
  });
});

describe('runCase with an agentExit check', () => {
  it("passes on the agent's expected exit code, and fails on another as the agent's error", async () => {
    const exits3 = await runCase(base({ checks: [{ kind: 'agentExit', expectExit: 3 }] }), { cmd: 'exit 3' });
    expect(exits3).toMatchObject({ passed: true, checkResults: [{ kind: 'agentExit', passed: true, exitCode: 3 }] });

    const exits0 = await runCase(base({ checks: [{ kind: 'agentExit', expectExit: 3 }] }), { cmd: 'true' });
    expect(exits0).toMatchObject({ outcome: 'failed', error: 'agent exited with 0, expected 3' });

    // A non-zero exit that fails a check is the agent's error, as with every check kind.
    const fails = await runCase(base({ checks: [{ kind: 'agentExit' }] }), { cmd: 'echo crashed; exit 1' });
    expect(fails).toMatchObject({
      outcome: 'agentError',
      error: 'agent command exited with 1: crashed',
      checkResults: [{ passed: false, message: 'agent exited with 1, expected 0', exitCode: 1 }],
    });
  });
});

const sandboxProbe = await probeSandbox();

describe('runCase with a workdir', () => {
  it('is refused without the sandbox, before anything runs', async () => {
    const result = await runCase(base({ workdir: '/app' }), { cmd: `touch '${outside}/agent-ran'` });
    expect(result).toMatchObject({
      outcome: 'harnessError',
      failedStep: 'harness',
      error:
        'workdir "/app" needs the bwrap sandbox, which shows the workspace there; run with --sandbox bwrap (sandbox: "bwrap")',
    });
    expect(existsSync(join(outside, 'agent-ran'))).toBe(false);
  });

  it('is refused when a file on this machine stands where one of its directories belongs', async () => {
    const result = await runCase(base({ workdir: '/etc/passwd/task' }), {
      cmd: 'true',
      sandbox: { kind: 'bwrap' },
    });
    expect(result.error).toBe(
      'workdir "/etc/passwd/task" cannot be placed: /etc/passwd on this machine is not a directory; choose another workdir, such as "/app"',
    );
  });

  it.runIf(sandboxProbe.available)(
    'is made inside a host directory that exists, whose own entries stay, read-only',
    async () => {
      const workdir = `/etc/gz-bench-task-${process.pid}`;
      const result = await runCase(
        base({
          workdir,
          checks: [
            { kind: 'fileContains', path: 'agent-pwd', text: workdir },
            // The host's /etc is still there, and still read-only.
            { kind: 'command', run: 'test -s /etc/passwd && ! touch /etc/gz-bench-beside 2>/dev/null' },
          ],
        }),
        { cmd: 'pwd > agent-pwd', sandbox: { kind: 'bwrap' } },
      );
      expect(result).toMatchObject({ passed: true, sandbox: 'bwrap' });
      expect(existsSync(workdir)).toBe(false);
      expect(existsSync('/etc/gz-bench-beside')).toBe(false);
    },
  );

  it.runIf(sandboxProbe.available)(
    'shows the workspace there to setup, the agent and command checks, and leaves the host without it',
    async () => {
      const workdir = `/gz-bench-task-${process.pid}`;
      const result = await runCase(
        base({
          workdir,
          setup: ['pwd > setup-pwd'],
          checks: [
            { kind: 'fileContains', path: 'setup-pwd', text: workdir },
            { kind: 'fileContains', path: 'agent-pwd', text: `${workdir} ${workdir}` },
            // The sandbox's own root stays read-only: nothing new appears beside the workdir.
            { kind: 'command', run: `test "$(pwd)" = ${workdir} && ! touch /gz-bench-beside 2>/dev/null` },
          ],
        }),
        { cmd: 'echo "$(pwd) {{dir}}" > agent-pwd', sandbox: { kind: 'bwrap' } },
      );
      expect(result).toMatchObject({ passed: true, sandbox: 'bwrap' });
      expect(existsSync(workdir)).toBe(false);
      expect(existsSync('/gz-bench-beside')).toBe(false);
    },
  );
});

describe('runCase with a fixture repository', () => {
  it('fails the case, with the reason, when the fixture is gone by the time it runs', async () => {
    const result = await runCase(
      base({ repo: join(outside, 'missing-fixture'), checks: [{ kind: 'fileExists', path: 'x' }] }),
      { cmd: 'true' },
    );
    expect(result).toMatchObject({
      passed: false,
      failedStep: 'harness',
      checkResults: [{ kind: 'fileExists', path: 'x', passed: false, skipped: true }],
    });
    expect(result.error).toMatch(/^could not prepare the workspace: /);
    expect(result.agent).toBeUndefined();
  });
});
