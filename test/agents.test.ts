import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report, ReportResult } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { intervalAgent, maxInFlight, readAgentRuns } from './support/agent-log.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { nodeCommand } from './support/shell.js';

// Several agents × cases × trials, with fake agents of known skill: `always` solves every task,
// `twoThirds` (fixtures/agents/skill.mjs) exactly two of every three runs of a task, `crash` exits 1
// with a message, as a CLI that is not logged in does. The numbers in the report must be exactly
// what the fakes were built to do.

const { project } = cleanupAfterAll();

const SUITE = {
  name: 'skills',
  cases: ['alpha', 'beta'].map((id) => ({
    id,
    prompt: id,
    checks: [{ kind: 'fileExists', path: 'hello.txt' }],
  })),
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** A project with the suite, a private TMPDIR, and the agents' ticket dir. */
async function skillProject(files: Record<string, string | object> = {}) {
  const p = await project({ 'bench/skills.bench.json': SUITE, ...files });
  const tmp = join(p.dir, 'tmp');
  const tickets = join(p.dir, 'tickets');
  await mkdir(tmp);
  await mkdir(tickets);
  // The task key is the prompt: the case id.
  const skill = (share: string) => `${nodeCommand(agentPath('skill.mjs'), tickets, share)} {{prompt}}`;
  return { p, tmp, tickets, skill };
}

function cells(report: Report): Map<string, ReportResult[]> {
  const byCell = new Map<string, ReportResult[]>();
  for (const row of report.results) {
    const key = `${row.agentName} > ${row.id}`;
    byCell.set(key, [...(byCell.get(key) ?? []), row]);
  }
  return byCell;
}

describe('agents × cases × trials through gz-bench run', () => {
  const scene = async (extra: string[] = []) => {
    const { p, tmp, skill } = await skillProject();
    const result = await runCli(
      [
        'run',
        'bench/skills.bench.json',
        '--json',
        '--sandbox',
        'none',
        '--trials',
        '3',
        '--agent',
        'always=touch hello.txt',
        '--agent',
        `twoThirds=${skill('2/3')}`,
        '--agent',
        'crash=echo "Error: Not logged in · Please run /login" >&2; exit 1',
        '--markdown',
        'out/scoreboard.md',
        ...extra,
      ],
      { cwd: p.dir, env: { TMPDIR: tmp, GITHUB_STEP_SUMMARY: join(p.dir, 'summary.md') }, timeoutMs: 120_000 },
    );
    return { result, tmp, dir: p.dir };
  };

  it('runs every agent on every case three times, and counts exactly what each agent did', async ({ expect }) => {
    const { result, tmp, dir } = await scene();
    expect(result.exitCode, output(result)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as Report;
    // The scoreboard counts the same: cells passed by the majority rule, errors apart from wrong answers.
    const agents = report.scoreboard?.agents ?? [];
    expect(agents.map((agent) => [agent.name, agent.passes, agent.trials])).toEqual([
      ['always', 6, 6],
      ['twoThirds', 4, 6],
      ['crash', 0, 6],
    ]);
    expect(agents.find((agent) => agent.name === 'crash')?.outcomes.agentError).toBe(6);
    const markdown = await readFile(join(dir, 'out/scoreboard.md'), 'utf8');
    expect(markdown).toContain('| case | always | twoThirds | crash |');
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toBe(`${markdown}\n`);
    expect(report.summary).toMatchObject({ total: 18, passed: 10, failed: 8 });
    const byCell = cells(report);
    expect([...byCell.keys()]).toEqual([
      'always > alpha',
      'always > beta',
      'twoThirds > alpha',
      'twoThirds > beta',
      'crash > alpha',
      'crash > beta',
    ]);
    for (const rows of byCell.values()) expect(rows.map((row) => row.trial)).toEqual([1, 2, 3]);
    const passes = (key: string) => byCell.get(key)?.filter((row) => row.passed).length;
    expect(passes('always > alpha')).toBe(3);
    expect(passes('twoThirds > alpha')).toBe(2);
    expect(passes('twoThirds > beta')).toBe(2);
    // Its one failure per task is a wrong answer; the crashing agent's are its errors, quoted.
    expect(byCell.get('twoThirds > beta')?.filter((row) => !row.passed)).toMatchObject([
      { outcome: 'failed', error: 'file does not exist: hello.txt' },
    ]);
    for (const row of [...(byCell.get('crash > alpha') ?? []), ...(byCell.get('crash > beta') ?? [])]) {
      expect(row).toMatchObject({
        outcome: 'agentError',
        failedStep: 'agent',
        error: 'agent command exited with 1: Error: Not logged in · Please run /login',
      });
    }
    expect(await readdir(tmp)).toEqual([]);
  });

  it('fails a cell by the pass rule: 2 of 3 is a majority, not all', async ({ expect }) => {
    const { result } = await scene(['--pass-rule', 'all', '-t', 'twoThirds']);
    expect(result.exitCode, output(result)).toBe(1);
    const report = JSON.parse(String(result.stdout)) as Report;
    // -t picks one agent's cells, and only those run.
    expect(new Set(report.results.map((row) => row.agentName))).toEqual(new Set(['twoThirds']));
    expect(report.summary).toMatchObject({ total: 6, passed: 4 });
    expect(String(result.stderr)).toContain('2 of 3 trials passed, and the cell passes when every trial passes');
  });

  it('refuses bad --agent, --trials and --pass-rule values before anything runs', async ({ expect }) => {
    const { p } = await skillProject();
    const cases: Array<[string[], string]> = [
      [
        ['--agent', 'noequals'],
        '--agent "noequals" is neither a preset (claude-code, codex, gemini, qwen, opencode) nor NAME=TEMPLATE',
      ],
      [['--agent', 'claud'], 'unknown preset "claud" (did you mean claude-code?)'],
      [
        ['--agent', 'a=x', '--agent', 'a=y'],
        '--agent: two agents are named "a"; give one of them another name (NAME=…)',
      ],
      [['--agent', 'a=x', '--cmd', 'y'], '--cmd and --agent do not go together'],
      [['--agent', 'a=x', '--trials', '0'], '--trials must be a positive integer up to 1000, got "0"'],
      [['--agent', 'a=x', '--pass-rule', 'most'], 'invalid cell rule "most"'],
      [['--agent', 'a=x {{nope}}'], 'agent "a"'],
    ];
    for (const [flags, message] of cases) {
      const result = await runCli(['run', 'bench/skills.bench.json', ...flags], { cwd: p.dir });
      expect(result.exitCode, output(result)).toBe(2);
      expect(String(result.stderr)).toContain(message);
      expect(String(result.stderr)).not.toMatch(/\n\s+at /);
    }
  });
});

describe('agents × trials through vitest run with the plugin', () => {
  it('names each cell suite > agent > case, picks agents with GZ_BENCH_AGENTS, and keeps every trial', async ({
    expect,
  }) => {
    const { p, tmp, skill } = await skillProject();
    await p.write(
      'vitest.config.ts',
      pluginProjectFiles({
        report: 'out/report.json',
        trials: 2,
        agents: { always: 'touch hello.txt', never: 'true', half: skill('1/2') },
      })['vitest.config.ts'] as string,
    );
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    const listed = await runVitest(['list', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp } });
    expect(String(listed.stdout).trim().split('\n')).toEqual(
      ['always', 'never', 'half'].flatMap((agent) =>
        ['alpha', 'beta'].map((id) => `bench/skills.bench.json > skills > ${agent} > ${id}`),
      ),
    );
    const result = await runVitest(['run', 'bench/'], {
      cwd: p.dir,
      env: { TMPDIR: tmp, GZ_BENCH_AGENTS: 'always,ha*' },
      timeoutMs: 120_000,
    });
    expect(result.exitCode, output(result)).toBe(1);
    const report = await readReport(p.dir, 'out/report.json');
    // Which trial of a cell gets which ticket is up to the race; how many pass is not.
    expect(report.results.map((row) => `${row.agentName} > ${row.id} #${row.trial}`)).toEqual(
      ['always', 'half'].flatMap((agent) =>
        ['alpha', 'beta'].flatMap((id) => [1, 2].map((t) => `${agent} > ${id} #${t}`)),
      ),
    );
    const outcomes = [...cells(report)].map(
      ([key, rows]) =>
        `${key}: ${rows
          .map((row) => row.outcome)
          .sort()
          .join(',')}`,
    );
    expect(outcomes).toEqual([
      'always > alpha: passed,passed',
      'always > beta: passed,passed',
      'half > alpha: failed,passed',
      'half > beta: failed,passed',
    ]);
    expect(await readdir(tmp)).toEqual([]);
  });

  it("gives each agent its own env constants and case HOME files, and no other agent's", async ({ expect }) => {
    const { p, tmp } = await skillProject();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, for the agent's shell
    const cmd = 'echo "FOO=${FOO:-unset}"; cat "$HOME/.agentrc" 2>/dev/null || echo "no rc"';
    await p.write(
      'vitest.config.ts',
      pluginProjectFiles({
        report: 'out/report.json',
        agents: {
          seeded: { cmd, env: { FOO: 'bar' }, home: [{ path: '.agentrc', content: 'rc of seeded\n' }] },
          plain: cmd,
        },
      })['vitest.config.ts'] as string,
    );
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    await p.write('bench/skills.bench.json', { name: 'skills', cases: [{ id: 'a', prompt: 'p', checks: [] }] });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp, FOO: 'harness' } });
    expect(result.exitCode, output(result)).toBe(0);
    const report = await readReport(p.dir, 'out/report.json');
    expect(report.results.map((row) => [row.agentName, row.agent?.outputTail])).toEqual([
      ['seeded', 'FOO=bar\nrc of seeded\n'],
      ['plain', 'FOO=unset\nno rc\n'],
    ]);
  });

  it('holds an agent to its own concurrency within the run limit', async ({ expect }) => {
    const { p, tmp } = await skillProject();
    const log = join(p.dir, 'agents.log');
    await p.write(
      'vitest.config.ts',
      pluginProjectFiles({
        report: 'out/report.json',
        concurrency: 4,
        trials: 3,
        agents: { slow: { cmd: intervalAgent(log, 300), concurrency: 1 } },
      })['vitest.config.ts'] as string,
    );
    await p.write('package.json', { name: 'bench-user', private: true, type: 'module' });
    await p.write('bench/skills.bench.json', {
      name: 'skills',
      cases: [
        { id: 'a', prompt: 'p', checks: [] },
        { id: 'b', prompt: 'p', checks: [] },
      ],
    });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 120_000 });
    expect(result.exitCode, output(result)).toBe(0);
    const runs = await readAgentRuns(log);
    expect(runs).toHaveLength(6);
    expect(maxInFlight(runs)).toBe(1);
  });
});
