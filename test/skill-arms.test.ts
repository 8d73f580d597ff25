import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { ASKS_CASE, SKILL_READER_CMD, skillFile, skillSuiteFiles } from './support/skill-suite.js';

// Skill arms as a user runs them: a suite's arms (or --arm) multiply with the agents, each trial
// gets its arm's skills where its agent looks, the rows say which arm and what became of each
// skill, and a bad skill stops the run in one line before anything runs.

const cleanup = cleanupAfterAll();
const HELLO_CASE = {
  id: 'hello',
  prompt: 'Say hello, without skills.',
  checks: [
    { kind: 'fileExists', path: 'answer.txt' },
    { kind: 'skillUsed', skill: 'answers', expect: false },
  ],
};
const FILES = {
  ...skillSuiteFiles([ASKS_CASE, HELLO_CASE]),
  'bench/skills/answers/scripts/run.sh': 'echo run\n',
};
const SUITE = (FILES as Record<string, string | object>)['bench/skills.bench.json'] as object;

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout).slice(-3000)}\n--- stderr\n${String(result.stderr).slice(-3000)}`;
}

describe('skill arms through gz-bench run', () => {
  it('runs each case once per arm, with the skill only in its arm, outside the changes', async () => {
    const p = await cleanup.project(FILES);
    // The agent lists its workspace's skill folders: a skill shows up only where its arm put it.
    const cmd = 'ls -R .agents 2>/dev/null > seen.txt; echo done > answer.txt';
    const result = await runCli(['run', 'bench/skills.bench.json', '--cmd', cmd, '--sandbox', 'none', '--json'], {
      cwd: p.dir,
    });
    const report = JSON.parse(String(result.stdout)) as Report;
    const rows = report.results.map(({ id, arm, agentName, skills }) => ({ id, arm, agentName, skills }));
    expect(rows, output(result)).toEqual([
      { id: 'asks', arm: 'none', agentName: undefined, skills: undefined },
      { id: 'hello', arm: 'none', agentName: undefined, skills: undefined },
      // A command of your own gives no trajectory: whether it used the skill is not known.
      { id: 'asks', arm: 'v1', agentName: undefined, skills: [{ name: 'answers' }] },
      { id: 'hello', arm: 'v1', agentName: undefined, skills: [{ name: 'answers' }] },
    ]);
    for (const row of report.results) {
      const added = row.changes?.files.map((file) => file.path) ?? [];
      expect(added.sort()).toEqual(['answer.txt', 'seen.txt']);
    }
    // skillUsed passes in the arm without the skill, and cannot tell without a trajectory.
    expect(report.results.filter((row) => row.passed).map((row) => `${row.arm}/${row.id}`)).toEqual(['none/hello']);
    expect(report.results.find((row) => row.arm === 'v1' && row.id === 'hello')?.error).toBe(
      'cannot tell whether the skill answers was used: the agent gave no trajectory',
    );
  });

  it('takes --arm over the suite’s arms, and -t selects an arm’s column', async () => {
    const p = await cleanup.project({
      ...FILES,
      'elsewhere/answers/SKILL.md': skillFile('answers', 'ANSWER: other'),
    });
    const result = await runCli(
      [
        'run',
        'bench/skills.bench.json',
        '--cmd',
        'echo done > answer.txt',
        '--arm',
        'base=',
        '--arm',
        'mine=elsewhere/answers',
        '--baseline-arm',
        'base',
        '-t',
        'mine',
        '--sandbox',
        'none',
        '--json',
      ],
      { cwd: p.dir },
    );
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(
      report.results.map((row) => `${row.arm} ${row.id}`),
      output(result),
    ).toEqual(['mine asks', 'mine hello']);
  });

  it('puts the skills in each trial’s own HOME with --skill-scope user', async () => {
    const p = await cleanup.project(FILES);
    const cmd = 'test -f "$HOME/.agents/skills/answers/SKILL.md" && test ! -e .agents && echo forty-two > answer.txt';
    const result = await runCli(
      [
        'run',
        'bench/skills.bench.json',
        '--cmd',
        cmd,
        '--arm',
        'home=bench/skills/answers',
        '--skill-scope',
        'user',
        '--case',
        'asks',
        '--sandbox',
        'none',
        '--json',
      ],
      { cwd: p.dir },
    );
    const report = JSON.parse(String(result.stdout)) as Report;
    // The answer is there; only skillUsed, without a trajectory, cannot tell.
    expect(
      report.results.map((row) => row.checkResults.map((check) => check.passed)),
      output(result),
    ).toEqual([[true, false]]);
  });

  it('proves the checks with check-suite without any arm', async () => {
    const p = await cleanup.project(FILES);
    const suite = { ...SUITE, cases: [{ ...ASKS_CASE, solution: ['echo forty-two > answer.txt'] }] };
    await writeFile(join(p.dir, 'bench/skills.bench.json'), JSON.stringify(suite));
    const result = await runCli(['check-suite', 'bench/skills.bench.json', '--sandbox', 'none'], { cwd: p.dir });
    expect(result.exitCode, output(result)).toBe(0);
  });

  it('refuses each bad skill in one line naming its file, before anything runs', async () => {
    const bad: Array<[string, Record<string, string>, string]> = [
      [
        'no front matter',
        { 'bench/skills/answers/SKILL.md': 'just text\n' },
        'bench/skills/answers/SKILL.md: no front matter',
      ],
      [
        'a name that breaks the rules',
        { 'bench/skills/answers/SKILL.md': skillFile('Answers', 'x') },
        'bench/skills/answers/SKILL.md: the name "Answers" must be lowercase letters, digits and single hyphens',
      ],
      [
        'a name that is not its folder',
        { 'bench/skills/answers/SKILL.md': skillFile('replies', 'x') },
        'bench/skills/answers/SKILL.md: the name replies must match its folder, answers',
      ],
      [
        'a description over 1,024 characters',
        { 'bench/skills/answers/SKILL.md': skillFile('answers', 'x', 'y'.repeat(1025)) },
        'bench/skills/answers/SKILL.md: the description is 1025 characters long, more than 1024',
      ],
      ['a folder that is not there', { 'bench/skills/answers/SKILL.md': '' }, 'bench/skills/answers'],
    ];
    for (const [what, files, message] of bad) {
      const p = await cleanup.project({ ...FILES, ...files });
      if (what === 'a folder that is not there') {
        const { rm } = await import('node:fs/promises');
        await rm(`${p.dir}/bench/skills/answers`, { recursive: true });
      }
      for (const args of [
        ['run', 'bench/skills.bench.json', '--cmd', 'touch ran', '--sandbox', 'none'],
        ['validate', 'bench/skills.bench.json'],
      ]) {
        const result = await runCli(args, { cwd: p.dir });
        expect(result.exitCode, `${what}: ${output(result)}`).toBe(2);
        const first = String(result.stderr).split('\n')[0] ?? '';
        expect(first, what).toContain(message);
        expect(String(result.stderr), what).not.toMatch(/\n\s+at /);
      }
    }
  });

  it('refuses two skills of one name in an arm, and a skillUsed check that names no skill of any arm', async () => {
    const twins = await cleanup.project({
      ...FILES,
      'bench/skills.bench.json': { ...SUITE, arms: { v1: ['./skills/answers', './other/answers'] } },
      'bench/other/answers/SKILL.md': skillFile('answers', 'x'),
    });
    const twin = await runCli(['validate', 'bench/skills.bench.json'], { cwd: twins.dir });
    expect(twin.exitCode, output(twin)).toBe(2);
    expect(String(twin.stderr)).toContain('arm "v1" has two skills named answers');
    const misspelt = await cleanup.project({
      ...FILES,
      'bench/skills.bench.json': {
        ...SUITE,
        cases: [{ id: 'x', prompt: 'p', checks: [{ kind: 'skillUsed', skill: 'answer' }] }],
      },
    });
    const result = await runCli(['run', 'bench/skills.bench.json', '--cmd', 'true', '--sandbox', 'none'], {
      cwd: misspelt.dir,
    });
    expect(result.exitCode, output(result)).toBe(2);
    expect(String(result.stderr)).toContain(
      'case "x": skillUsed names the skill answer, which no arm installs (answers)',
    );
  });

  it('writes a skill-eval suite beside a skill with init --skill, which validates and runs', async () => {
    const p = await cleanup.project({ 'skills/answers/SKILL.md': skillFile('answers', 'ANSWER: forty-two') });
    const init = await runCli(['init', '--skill', 'skills/answers'], { cwd: p.dir });
    expect(init.exitCode, output(init)).toBe(0);
    expect(String(init.stdout)).toContain('wrote skills/answers.bench.json');
    const validate = await runCli(['validate', 'skills/answers.bench.json'], { cwd: p.dir });
    expect(String(validate.stdout), output(validate)).toContain('valid suite "answers-skill" with 3 cases');
    const run = await runCli(['run', 'skills/answers.bench.json', '--cmd', 'true', '--sandbox', 'none', '--json'], {
      cwd: p.dir,
    });
    const report = JSON.parse(String(run.stdout)) as Report;
    expect(new Set(report.results.map((row) => row.arm))).toEqual(new Set(['none', 'current']));
    const again = await runCli(['init', '--skill', 'skills/answers'], { cwd: p.dir });
    expect(again.exitCode).toBe(2);
  });
});

describe('skill arms through the Vitest plugin', () => {
  it('reads use from the trajectory, and says the arm helps, with its interval and trigger rate', async () => {
    const p = await cleanup.project({
      ...FILES,
      ...pluginProjectFiles({
        report: 'out/report.json',
        trials: 3,
        agents: {
          reader: { cmd: SKILL_READER_CMD, trajectory: 'claude-code', skillDirs: { project: '.claude/skills' } },
        },
      }),
    });
    const result = await runVitest(['run', 'bench/'], { cwd: p.dir });
    const report = await readReport(p.dir, 'out/report.json');
    const v1 = report.results.filter((row) => row.arm === 'v1' && row.id === 'asks');
    expect(v1, output(result)).toHaveLength(3);
    for (const row of v1) {
      expect(row.passed, output(result)).toBe(true);
      expect(row.skills).toEqual([
        { name: 'answers', advertised: true, used: true, step: 2, route: 'tool', tool: 'Skill' },
      ]);
    }
    const hello = report.results.find((row) => row.arm === 'v1' && row.id === 'hello');
    expect(hello?.skills).toEqual([{ name: 'answers', advertised: true, used: false }]);
    expect(hello?.passed).toBe(true);
    expect(report.results.filter((row) => row.arm === 'none' && row.id === 'asks').every((row) => !row.passed)).toBe(
      true,
    );
    // 3/3 with the skill against 0/3 without on "asks", both arms 3/3 on "hello": paired by case, [+0.01, +0.78].
    const [verdict] = report.scoreboard?.arms ?? [];
    expect(verdict).toMatchObject({
      agentName: 'reader',
      arm: 'v1',
      baseline: 'none',
      pairedCases: 2,
      passRate: 1,
      baselinePassRate: 0.5,
      effect: 'helps',
      trigger: { used: 3, trials: 6, rate: 0.5 },
    });
    expect(verdict?.interval.low).toBeGreaterThan(0);
    expect(String(result.stdout)).toContain('skill arms');
    // -t picks the column by its name, agent/arm.
    const picked = await runVitest(['run', 'bench/', '-t', 'reader/none'], { cwd: p.dir });
    const only = await readReport(p.dir, 'out/report.json');
    expect(new Set(only.results.map((row) => row.arm)), output(picked)).toEqual(new Set(['none']));
  });
});
