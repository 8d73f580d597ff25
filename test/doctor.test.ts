import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { probeEngine } from '@gz-bench/core';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netnsPrefix, offlineUnavailable } from './support/agent-cli.js';
import { REPO_ROOT } from './support/paths.js';

// `gz-bench doctor` run as a user would, from the repository, whose node_modules/.bin holds the five
// pinned CLIs (PATH does not: doctor finds them where npx would). Offline where a network namespace
// can be made: asking a CLI its version must not need the network anyway.
const CLI = join(REPO_ROOT, 'packages', 'vitest-plugin', 'bin', 'gz-bench.js');
const via = offlineUnavailable() === undefined ? netnsPrefix('self') : [];
let home: string;
let pinned: Record<string, string>;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'gzb-doctor-home-'));
  pinned = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')).devDependencies;
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function doctor(args: string[], env: Record<string, string> = {}, userHome = home) {
  const [file = 'node', ...rest] = [...via, process.execPath, CLI, 'doctor', ...args];
  return execa(file, rest, {
    cwd: REPO_ROOT,
    // Nothing of the tester's own environment (their API keys) gets in.
    env: {
      PATH: [dirname(process.execPath), '/usr/bin', '/bin', '/usr/sbin', '/sbin'].join(':'),
      HOME: userHome,
      NO_COLOR: '1',
      ...env,
    },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
}

/** The block of one agent in doctor's report. */
function block(stdout: string, name: string): string {
  return stdout.split('\n\n').find((each) => each.startsWith(`${name}  `)) ?? '';
}

describe('gz-bench doctor', () => {
  it('reports every preset: program, version, command, variables by name, what is missing; exit 1 while one is not ready', async () => {
    const secret = 'sk-ant-this-value-must-never-show';
    const result = await doctor([], {
      ANTHROPIC_API_KEY: secret,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      OPENAI_API_KEY: 'sk-other-secret',
    });
    expect(result.exitCode, String(result.stderr)).toBe(1);
    const stdout = String(result.stdout);
    expect(stdout).not.toContain(secret);
    expect(stdout).not.toContain('sk-other-secret');
    expect(stdout).not.toContain('127.0.0.1:9');
    const claude = block(stdout, 'claude-code');
    expect(claude.split('\n')).toEqual([
      'claude-code  ready',
      `  program  ${join(REPO_ROOT, 'node_modules', '.bin', 'claude')} (node_modules/.bin)`,
      `  version  ${pinned['@anthropic-ai/claude-code']} (Claude Code)`,
      '  command  claude -p --output-format stream-json --verbose --dangerously-skip-permissions < {{promptFile}}',
      '  unsafe   --dangerously-skip-permissions: turns its approval prompts off (runs with --unsafe only)',
      '  env      ANTHROPIC_* (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL set), CLAUDE_CODE_OAUTH_TOKEN not set, CLAUDE_CODE_USE_BEDROCK not set, CLAUDE_CODE_USE_VERTEX not set',
      '  login    ~/.claude/.credentials.json not found, ~/.claude.json not found',
    ]);
    expect(block(stdout, 'codex')).toContain(`  version  codex-cli ${pinned['@openai/codex']}\n`);
    expect(block(stdout, 'codex')).toMatch(/^codex {2}ready\n/);
    expect(block(stdout, 'qwen')).toContain(`  version  ${pinned['@qwen-code/qwen-code']}\n`);
    expect(block(stdout, 'opencode')).toContain(`  version  ${pinned['opencode-ai']}\n`);
    const gemini = block(stdout, 'gemini');
    expect(gemini).toMatch(/^gemini {2}NOT READY\n/);
    expect(gemini).toContain(`  version  ${pinned['@google/gemini-cli']}\n`);
    expect(gemini).toContain(
      '  env      GEMINI_API_KEY not set, GOOGLE_API_KEY not set, GOOGLE_GEMINI_BASE_URL not set\n',
    );
    expect(gemini).toMatch(/ {2}missing {2}credentials: set GEMINI_API_KEY or GOOGLE_API_KEY$/);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('5 agents: 4 ready, 1 not ready');
  });

  it('checks the agents named with --agent and exits 0 when each is ready; a login file counts as credentials', async () => {
    const loggedIn = await mkdtemp(join(tmpdir(), 'gzb-doctor-login-'));
    try {
      await mkdir(join(loggedIn, '.claude'));
      await writeFile(join(loggedIn, '.claude', '.credentials.json'), '{}');
      const result = await doctor(
        ['--agent', 'claude-code:opus', '--agent', 'fast=codex:gpt-5-codex'],
        { CODEX_API_KEY: 'k' },
        loggedIn,
      );
      expect(result.exitCode, String(result.stdout)).toBe(0);
      const stdout = String(result.stdout);
      expect(block(stdout, 'claude-code:opus')).toContain(
        '  command  claude -p --output-format stream-json --verbose --dangerously-skip-permissions --model opus < {{promptFile}}\n',
      );
      expect(block(stdout, 'claude-code:opus')).toContain(
        '  login    ~/.claude/.credentials.json found, ~/.claude.json not found',
      );
      expect(block(stdout, 'fast')).toMatch(/^fast {2}ready\n/);
      expect(block(stdout, 'fast')).toContain('--model gpt-5-codex - < {{promptFile}}');
      expect(stdout.trimEnd().split('\n').at(-1)).toBe('2 agents: 2 ready, 0 not ready');
    } finally {
      await rm(loggedIn, { recursive: true, force: true });
    }
  });

  it('finds the program of a command of the user’s own without running it', async () => {
    const marker = join(home, 'ran');
    const script = join(home, 'my-agent.sh');
    await writeFile(script, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    const result = await doctor([
      '--agent',
      `mine=${script} --workdir {{dir}} {{prompt}}`,
      '--agent',
      'gone=no-such-agent-xyz {{prompt}}',
    ]);
    expect(result.exitCode).toBe(1);
    const stdout = String(result.stdout);
    expect(block(stdout, 'mine').split('\n')).toEqual([
      'mine  ready',
      `  program  ${script}`,
      `  command  ${script} --workdir {{dir}} {{prompt}}`,
    ]);
    expect(block(stdout, 'gone')).toContain('  missing  no-such-agent-xyz: not on PATH nor in node_modules/.bin');
    await expect(readFile(marker)).rejects.toThrow();
  });

  it.each([
    [
      ['--agent', 'claud'],
      'gz-bench: --agent: unknown preset "claud" (did you mean claude-code?); presets are claude-code, codex, gemini, qwen, opencode',
    ],
    [
      ['--agent', 'codex', '--agent', 'codex'],
      'gz-bench: --agent: two agents are named "codex"; give one of them another name (NAME=…)',
    ],
    [['--agent', '=codex'], 'gz-bench: --agent "=codex" has an empty name before "="'],
    [['extra'], 'gz-bench: doctor takes no arguments but --agent (got "extra")'],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await doctor(args);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr).split('\n')[0]).toContain(message);
  });

  it('names the environment engines it found, what stops each, and which one auto takes', async () => {
    // The engines are looked for on the same PATH as this test's probes.
    const result = await doctor(['--agent', 'mine=echo hi'], { PATH: process.env.PATH ?? '' });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const engines = block(String(result.stdout), 'environments');
    const [heading, docker, podman, bwrap] = engines.trimEnd().split('\n');
    const dockerWorks = (await probeEngine('docker')).works;
    const podmanWorks = (await probeEngine('podman')).works;
    const chosen = dockerWorks ? 'docker' : podmanWorks ? 'podman' : 'bwrap';
    expect(heading).toBe(`environments  engine "auto" takes ${chosen} here`);
    expect(docker).toMatch(dockerWorks ? /^ {2}docker {3}works \(/ : /^ {2}docker {3}not usable: .+; .+/);
    expect(podman).toMatch(podmanWorks ? /^ {2}podman {3}works \(/ : /^ {2}podman {3}not usable: .+; .+/);
    expect(bwrap).toMatch(/^ {2}bwrap {4}(works \(|not usable: )/);
  });
});
