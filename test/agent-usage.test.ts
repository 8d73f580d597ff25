import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';

// Usage read from an agent's whole stdout, never from the mixed tail: fixtures/agents/claude-like.mjs
// prints Claude Code's stream-json (with warnings on stderr between its lines, and 20 KB messages
// with --long), and the report must hold exactly the figures it printed.

const { project } = cleanupAfterAll();

const SUITE = {
  name: 'usage',
  cases: [{ id: 'hello', prompt: 'p', checks: [{ kind: 'fileExists', path: 'hello.txt' }] }],
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

async function usageProject(options: Record<string, unknown>) {
  const p = await project({
    ...pluginProjectFiles({ report: 'out/report.json', ...options }),
    'bench/u.bench.json': SUITE,
  });
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  return { p, tmp };
}

const claudeLike = (...args: string[]) => nodeCommand(agentPath('claude-like.mjs'), ...args);

describe('usage through vitest run with the plugin', () => {
  it('reads the whole stream of a long transcript with the built-in extractor, to the token', async ({ expect }) => {
    const { p, tmp } = await usageProject({
      agents: {
        sonnet: {
          cmd: claudeLike('15', 'claude-sonnet-4-5-20250929', '--long'),
          usage: { builtin: 'claude-code' },
          model: 'claude-sonnet-4-5',
        },
      },
    });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(result.exitCode, output(result)).toBe(0);
    const [row] = (await readReport(p.dir, 'out/report.json')).results;
    // 15 steps × 20 KB: far more than the 4,000-character tail, which holds none of the figures.
    expect(row?.agent?.outputBytes).toBeGreaterThan(300_000);
    expect(row?.agent?.usage).toEqual({
      inputTokens: 15_000,
      outputTokens: 750,
      cachedInputTokens: 6000,
      cacheWriteTokens: 30,
      costUsd: 0.1875,
      costSource: 'agent',
      model: 'claude-sonnet-4-5-20250929',
      turns: 15,
      toolCalls: 14,
    });
    expect(row?.warnings).toBeUndefined();
    const board = (await readReport(p.dir, 'out/report.json')).scoreboard;
    expect(board?.agents[0]?.usage).toMatchObject({ inputTokens: 15_000, outputTokens: 750, costUsd: 0.1875 });
    expect(await readdir(tmp)).toEqual([]);
  });

  it('reads a declared JSONL extractor, and warns when another model served', async ({ expect }) => {
    const { p, tmp } = await usageProject({
      agents: {
        mine: {
          cmd: claudeLike('4', 'claude-haiku-4-5'),
          model: 'claude-opus-4-1',
          usage: { jsonl: { model: 'message.model', turns: 'num_turns', inputTokens: 'usage.input_tokens' } },
        },
      },
    });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(result.exitCode, output(result)).toBe(0);
    const [row] = (await readReport(p.dir, 'out/report.json')).results;
    expect(row?.agent?.usage).toEqual({ model: 'claude-haiku-4-5', turns: 4, inputTokens: 4000 });
    expect(row?.warnings).toContain('agent "mine" asked for model claude-opus-4-1, and claude-haiku-4-5 served it');
  });

  it('ends a trial that reports more tokens than maxTokens as over budget, its checks not run', async ({ expect }) => {
    const { p, tmp } = await usageProject({
      maxTokens: 2000,
      agents: {
        big: { cmd: claudeLike('3'), usage: { builtin: 'claude-code' } },
        small: { cmd: claudeLike('1'), usage: { builtin: 'claude-code' } },
      },
    });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(result.exitCode, output(result)).toBe(1);
    const report = await readReport(p.dir, 'out/report.json');
    expect(report.results.map((row) => [row.agentName, row.outcome, row.error])).toEqual([
      [
        'big',
        'overBudget',
        'the agent reported 3150 tokens, over the budget of 2000 (maxTokens); it was stopped as its output reported it',
      ],
      ['small', 'passed', undefined],
    ]);
    expect(report.results[0]?.checkResults).toEqual([
      { kind: 'fileExists', path: 'hello.txt', passed: false, skipped: true },
    ]);
  });

  it('refuses a usage extractor it cannot use before anything runs', async ({ expect }) => {
    const { p, tmp } = await usageProject({ agents: { bad: { cmd: 'true', usage: { regex: '(?<tokens>\\d+)' } } } });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(result.exitCode, output(result)).toBe(1);
    expect(String(result.stderr)).toContain('gz-bench agent "bad": "usage"');
    expect(String(result.stderr)).toContain('tokens');
  });
});

describe('presets and the unsafe gate through gz-bench run', () => {
  it('stops before anything runs when an agent turns off its approval prompts, unless --unsafe', async ({ expect }) => {
    const { p, tmp } = await usageProject({});
    // A claude on PATH that prints what Claude Code would: the preset's own command runs it.
    const bin = join(p.dir, 'bin');
    await mkdir(bin);
    await p.write('bin/claude', `#!/bin/sh\nexec ${claudeLike('2', 'claude-sonnet-4-5-20250929')}\n`);
    await import('node:fs/promises').then((fs) => fs.chmod(join(bin, 'claude'), 0o755));
    const env = { TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? ''}` };
    const refused = await runCli(['run', 'bench/u.bench.json', '--agent', 'claude-code', '--sandbox', 'none'], {
      cwd: p.dir,
      env,
    });
    expect(refused.exitCode, output(refused)).toBe(2);
    expect(String(refused.stderr)).toContain(
      'gz-bench: this agent turns off its own approval prompts, so it can run any command without asking: claude-code (--dangerously-skip-permissions); allow this with --unsafe',
    );
    expect(await readdir(tmp)).toEqual([]);

    const allowed = await runCli(
      [
        'run',
        'bench/u.bench.json',
        '--agent',
        'sonnet=claude-code:claude-sonnet-4-5',
        '--unsafe',
        '--sandbox',
        'none',
        '--json',
      ],
      { cwd: p.dir, env },
    );
    expect(allowed.exitCode, output(allowed)).toBe(0);
    const report = JSON.parse(String(allowed.stdout));
    expect(report.results[0]).toMatchObject({
      agentName: 'sonnet',
      outcome: 'passed',
      agent: {
        usage: { inputTokens: 2000, outputTokens: 100, turns: 2, toolCalls: 1, model: 'claude-sonnet-4-5-20250929' },
      },
    });
  });
});
