import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import type { Case, Suite } from '../suite/schema.js';
import { withSuiteSettings } from '../suite/suite-settings.js';
import { runCase } from './run-case.js';

// The environment of each command of a case: setup and checks get the suite's and case's settings
// and git's safety settings; the agent gets those settings, its own `allowEnv` and `env` on top, and
// a git of its own.

const probe = await probeSandbox();
const SANDBOXES = [{ kind: 'none' as const }, ...(probe.available ? [{ kind: 'bwrap' as const }] : [])];

let outside: string;
beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), 'gzb-run-case-env-'));
});
afterEach(async () => {
  await rm(outside, { recursive: true, force: true });
});

/** The `NAME=value` lines of an `env` dump in a kept workspace (values on one line, as these tests set them). */
async function envFile(workspace: string | undefined, name: string): Promise<Record<string, string>> {
  const text = await readFile(join(workspace ?? '', name), 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

const HARNESS = {
  PATH: process.env.PATH,
  HOME: '/home/harness',
  ANTHROPIC_API_KEY: 'sk-ant',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  OPENAI_API_KEY: 'sk-openai',
  GH_TOKEN: 'ghp',
  AGENT_ONLY: 'agent-key',
  NOT_ASKED: 'stays out',
  GIT_DIR: '/somewhere/.git',
  GZ_BENCH_CMD: 'the harness option',
};

describe.each(SANDBOXES)('runCase environments (sandbox $kind)', (sandbox) => {
  it('lists, patterns and constants reach the commands they are meant for, and nothing else does', async () => {
    const suite: Suite = {
      name: 's',
      env: { SUITE_ONLY: 'suite', SHARED: 'from the suite' },
      allowEnv: ['NOT_ASKED'],
      cases: [],
    };
    const testCase: Case = {
      id: 'c',
      prompt: 'p',
      env: { SHARED: 'from the case', CASE_ONLY: 'case', LANG: 'C.UTF-8' },
      // The case's own allowEnv replaces the suite's.
      allowEnv: ['ANTHROPIC_*'],
      // Into the workspace: the sandbox lets the commands write nowhere else.
      setup: ['env > setup.env'],
      checks: [{ kind: 'command', run: 'env > check.env' }],
    };
    const result = await runCase(withSuiteSettings(suite, testCase), {
      cmd: 'env > agent.env',
      env: HARNESS,
      keep: true,
      tmpDir: outside,
      allowEnv: ['OPENAI_API_KEY, GH_TOKEN'],
      agent: { env: { SHARED: 'from the agent', IS_SANDBOX: '1', GIT_AUTHOR_NAME: 'Agent X' }, allowEnv: ['AGENT_*'] },
      sandbox,
    });
    expect(result, JSON.stringify(result)).toMatchObject({ passed: true, sandbox: sandbox.kind });
    const [setup = {}, agent = {}, check = {}] = await Promise.all(
      ['setup.env', 'agent.env', 'check.env'].map((name) => envFile(result.workspace, name)),
    );
    for (const env of [setup, agent, check]) {
      expect(env).toMatchObject({
        ANTHROPIC_API_KEY: 'sk-ant',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
        OPENAI_API_KEY: 'sk-openai',
        GH_TOKEN: 'ghp',
        SUITE_ONLY: 'suite',
        CASE_ONLY: 'case',
        LANG: 'C.UTF-8',
      });
      expect(env).not.toHaveProperty('NOT_ASKED');
      expect(env).not.toHaveProperty('GZ_BENCH_CMD');
      expect(env.HOME).not.toBe('/home/harness');
      expect(env.GIT_DIR).toBeUndefined();
    }
    for (const env of [setup, check]) {
      expect(env.SHARED).toBe('from the case');
      expect(env).not.toHaveProperty('AGENT_ONLY');
      expect(env).not.toHaveProperty('IS_SANDBOX');
      expect(env).not.toHaveProperty('GIT_AUTHOR_NAME');
      expect(env).toMatchObject({ GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_COUNT: '9' });
    }
    expect(agent).toMatchObject({
      SHARED: 'from the agent',
      IS_SANDBOX: '1',
      AGENT_ONLY: 'agent-key',
      GIT_AUTHOR_NAME: 'Agent X',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
    });
    // The agent's git reads the case HOME's config, none of the checks' hardening.
    expect(agent).not.toHaveProperty('GIT_CONFIG_GLOBAL');
    expect(agent).not.toHaveProperty('GIT_CONFIG_COUNT');
  });

  it('gives the agent a git identity of its own; checks still run git without any global config', async () => {
    const result = await runCase(
      {
        id: 'commit',
        prompt: 'p',
        git: true,
        setup: ['echo base > base.txt'],
        checks: [
          { kind: 'command', run: 'git log -1 --format=%an/%ae | grep -qx "gz-bench agent/agent@gz-bench.invalid"' },
          { kind: 'command', run: 'git log -1 --format=%s | grep -qx "the agent\'s work"' },
          // No global config in checks: the identity the agent had is not theirs.
          { kind: 'command', run: 'git config user.name', expectExit: 1 },
        ],
      },
      {
        cmd: `echo work > work.txt && git init -q && git add . && git commit -qm "the agent's work" && echo committed`,
        env: { PATH: process.env.PATH, HOME: outside },
        sandbox,
      },
    );
    expect(result.agent?.outputTail).toBe('committed\n');
    expect(result, JSON.stringify(result)).toMatchObject({ passed: true, checkResults: [{}, {}, {}] });
  });

  it('a case env constant applies to setup, the agent and checks', async () => {
    const result = await runCase(
      {
        id: 'c',
        prompt: 'p',
        env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        setup: ['[ "$GEMINI_CLI_TRUST_WORKSPACE" = true ]'],
        checks: [{ kind: 'command', run: '[ "$GEMINI_CLI_TRUST_WORKSPACE" = true ]' }],
      },
      { cmd: 'printf "seen %s" "$GEMINI_CLI_TRUST_WORKSPACE"', sandbox },
    );
    expect(result.passed).toBe(true);
    expect(result.agent?.outputTail).toBe('seen true');
  });
});

describe('runCase with agent settings it cannot use', () => {
  it.each([
    [{ env: { HOME: '/root' } }, /^the agent's env: HOME: HOME is set by gz-bench/],
    [{ env: { GZ_BENCH_DIR: '/x' } }, /^the agent's env: GZ_BENCH_DIR: GZ_BENCH_DIR is set by gz-bench/],
    [{ allowEnv: ['A*B'] }, /^the agent's allowEnv: "A\*B": a pattern has one \*, at its end/],
    [{ home: [{ path: '../escape', content: 'x' }] }, /^the agent's home file "\.\.\/escape": may not contain "\.\."/],
    [{ login: ['/etc/shadow'] }, /^the agent's login "\/etc\/shadow": must be relative to HOME, not absolute$/],
  ])('%j: fails as a harness error before anything runs', async (agent, message) => {
    const marker = join(outside, 'ran');
    const result = await runCase(
      { id: 'c', prompt: 'p', setup: [`touch '${marker}'`], checks: [{ kind: 'fileExists', path: 'x' }] },
      { cmd: `touch '${marker}'`, agent, tmpDir: outside },
    );
    expect(result).toMatchObject({
      passed: false,
      outcome: 'harnessError',
      failedStep: 'harness',
      checkResults: [{ skipped: true }],
    });
    expect(result.error).toMatch(message);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('runCase with the real HOME', () => {
  it('writes nothing into it: no git config, no home files, no logins, and says so', async () => {
    await writeFile(join(outside, '.keep'), 'mine');
    const result = await runCase(
      { id: 'c', prompt: 'p', realHome: true, checks: [] },
      {
        cmd: 'ls -A "$HOME"',
        env: { PATH: process.env.PATH, HOME: outside },
        agent: { home: [{ path: 'settings.json', content: '{}' }], login: ['.keep'] },
      },
    );
    expect(result.agent?.outputTail).toBe('.keep\n');
    expect(result.warnings).toEqual([
      "realHome: the agent's home files and logins were not written: its HOME is your own",
    ]);
  });
});
