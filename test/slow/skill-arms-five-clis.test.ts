import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from 'execa';
import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import type { Report, ReportResult } from '../../packages/core/src/report/model.js';
import { type ArmVerdict, armVerdicts } from '../../packages/core/src/skills/arm-verdicts.js';
import { skillPlacement } from '../../packages/core/src/skills/skill-placement.js';
import {
  ANSWER_FILE,
  PLAIN_FILE,
  type ScriptedSkill,
  SKILL_PRESETS,
  SKILL_ROUTES,
  type SkillPreset,
  skillScript,
  writeSkillFolder,
} from '../agents/skill-script.js';
import { netnsPrefix, offlineUnavailable } from '../support/agent-cli.js';
import { cleanupAfterAll } from '../support/cleanup.js';
import { type ModelScript, startModelEndpoint } from '../support/model-endpoint/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run.js';

// Skill arms as a user runs them: `gz-bench run` with all five presets at once on a suite whose arms
// are `none` and `v1` (one skill), the whole run inside a network namespace that has only loopback,
// where 127.0.0.1:<port> leads to ONE scripted model endpoint outside. The script tells the CLIs apart
// by the API and the tools of each request (`presetOf`), so each gets its own dialect of the same
// conversation. gz-bench makes each trial's workspace and HOME and installs the arm's skill there.

const BRIDGE = join(REPO_ROOT, 'test', 'support', 'model-endpoint', 'netns-bridge.mjs');
// opencode's `skill` tool lists the skill's folder with ripgrep: `rg` on PATH, else one in
// ~/.cache/opencode/bin, else one it downloads (which fails offline). Each trial's HOME is a fresh
// one of gz-bench's, but the agent's PATH is the harness's (caseEnv passes PATH on): so the folder of
// Qwen Code's vendored `rg` goes first on the PATH of the `gz-bench run` process.
const RIPGREP_DIR = join(
  REPO_ROOT,
  'node_modules/@qwen-code/qwen-code/vendor/ripgrep',
  `${process.arch}-${process.platform}`,
);

const SKILL: ScriptedSkill = {
  name: 'pdf',
  description: 'Explains how to fill in answer.txt for the pdf form; use it whenever a task mentions the pdf form.',
  marker: 'PDF-SKILL-BODY-MARKER-5e2b80',
};
/** Passes only where the skill's body reached the model: answer.txt must hold its marker. */
const POSITIVE = {
  id: 'fill-answer',
  prompt: 'Fill in answer.txt for the pdf form, then stop.',
  checks: [
    { kind: 'fileContains', path: ANSWER_FILE, text: SKILL.marker },
    { kind: 'skillUsed', skill: SKILL.name },
  ],
};
/** A task the model does without the skill, offered or not (the script's `plainPrompt`). */
const NEGATIVE = {
  id: 'say-hi',
  prompt: 'Create hello.txt containing hi, then stop.',
  checks: [
    { kind: 'skillUsed', skill: SKILL.name, expect: false },
    { kind: 'fileContains', path: PLAIN_FILE.path, text: PLAIN_FILE.text },
  ],
};
const SUITE_FILE = 'bench/pdf.bench.json';
const SUITE = { name: 'pdf-skill', arms: { none: [], v1: ['./skills/pdf'] }, cases: [POSITIVE, NEGATIVE] };

/** Each preset's model, the agent named as its preset (`NAME=PRESET:MODEL`); opencode needs a `gz-bench/` one. */
const MODELS: Record<SkillPreset, string> = {
  'claude-code': 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  gemini: 'gemini-2.5-pro',
  qwen: 'qwen3-coder-plus',
  opencode: 'gz-bench/test-model',
};
/** The CLIs whose init event lists the skills they offered; elsewhere `advertised` is known only from a load. */
const LISTS_OFFERED = new Set<SkillPreset>(['claude-code', 'qwen']);
/**
 * What a CLI itself adds to the workspace in the v1 arm, beside what the script has it write: opencode
 * writes a .gitignore into its config folder, which exists only because the skill is installed there.
 */
const V1_LEFTOVERS: Partial<Record<SkillPreset, string[]>> = { opencode: ['.opencode/.gitignore'] };

/** Every CLI's variables that point it at the endpoint, a dummy key each (each preset lets its own through). */
function endpointEnv(origin: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: origin,
    ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key',
    OPENAI_BASE_URL: `${origin}/v1`,
    OPENAI_API_KEY: 'sk-test-not-a-key',
    GOOGLE_GEMINI_BASE_URL: origin,
    GEMINI_API_KEY: 'test-not-a-key',
  };
}
/**
 * Switches a user would not set, passed with --allow-env: offline, opencode's catalogue of models and
 * its default plugins cannot be fetched anyway; Qwen Code and Gemini CLI start a second Node with a
 * bigger heap unless told not to, a second or two of CPU per trial that these runs cannot spare.
 */
const TEST_SWITCHES = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  QWEN_CODE_NO_RELAUNCH: 'true',
  GEMINI_CLI_NO_RELAUNCH: 'true',
};

/**
 * Trials at once. The agents' own CPU bounds these runs (opencode and Qwen Code take 7–9 s of it per
 * trial, Gemini CLI 4, Claude Code 2, Codex 1): on two cores, six at once keeps both busy.
 */
const CONCURRENCY = 6;

const { project } = cleanupAfterAll();

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout).slice(-3000)}\n--- stderr\n${String(result.stderr).slice(-3000)}`;
}

/**
 * Runs `gz-bench run` on the suite with `presets`, `--json` and `args`, inside the namespace, with a
 * private TMPDIR and an empty HOME, against one endpoint playing `script`. Checks what every run must
 * show (a report, nothing asked of the endpoint that it does not serve, nothing left in TMPDIR) and
 * resolves to the report.
 */
async function runArms(
  presets: readonly SkillPreset[],
  script: ModelScript,
  args: string[],
  timeoutMs: number,
): Promise<Report> {
  const p = await project({ [SUITE_FILE]: SUITE });
  await writeSkillFolder(join(p.dir, 'bench', 'skills'), SKILL);
  const tmp = join(p.dir, 'tmp');
  const home = join(p.dir, 'home');
  await mkdir(tmp);
  await mkdir(home);
  const socketPath = join(p.dir, 'endpoint.sock');
  const endpoint = await startModelEndpoint(script, { socketPath });
  let result: Result;
  try {
    const port = new URL(endpoint.origin).port;
    const agents = presets.flatMap((name) => ['--agent', `${name}=${name}:${MODELS[name]}`]);
    const allowEnv = ['--allow-env', Object.keys(TEST_SWITCHES).join(',')];
    result = await runCli(['run', SUITE_FILE, ...agents, '--unsafe', '--json', ...allowEnv, ...args], {
      cwd: p.dir,
      env: {
        TMPDIR: tmp,
        HOME: home,
        PATH: `${RIPGREP_DIR}:${process.env.PATH ?? ''}`,
        ...endpointEnv(endpoint.origin),
        ...TEST_SWITCHES,
      },
      via: [...netnsPrefix('self', { mountProc: true }), process.execPath, BRIDGE, port, socketPath],
      timeoutMs,
    });
  } finally {
    await endpoint.close();
  }
  let report: Report;
  try {
    report = JSON.parse(String(result.stdout)) as Report;
  } catch {
    throw new Error(`no JSON report\n${output(result)}`);
  }
  expect(endpoint.unknown).toEqual([]);
  expect(await readdir(tmp)).toEqual([]);
  return report;
}

/** The row's changed paths in the folder where its agent's skills are installed, or named SKILL.md. */
function skillChanges(row: ReportResult): string[] {
  const dir = skillPlacement(preset(row.agentName as SkillPreset), 'project').dir;
  return changedPaths(row).filter((path) => path.includes('SKILL.md') || path.startsWith(`${dir}/`));
}

/** Installed before the workspace snapshot, an arm's skills are no row's changes (where the agent left them be). */
function expectSkillsOutOfChanges(report: Report): void {
  for (const row of report.results) expect(skillChanges(row), shown(row)).toEqual([]);
}

function rowsOf(report: Report, agentName: string, id: string, arm: string): ReportResult[] {
  const rows = report.results.filter((row) => row.agentName === agentName && row.id === id && row.arm === arm);
  expect(rows.length, `rows of ${agentName}/${arm} ${id}`).toBeGreaterThan(0);
  return rows;
}

/** What a row shows of itself when an assertion on it fails. */
function shown(row: ReportResult): string {
  const { agentName, arm, id, trial, outcome, error, checkResults, skills, warnings, changes } = row;
  const tail = row.agent?.outputTail.slice(-1500);
  return JSON.stringify({ agentName, arm, id, trial, outcome, error, checkResults, skills, warnings, changes, tail });
}

function changedPaths(row: ReportResult): string[] {
  return (row.changes?.files ?? []).map((file) => file.path);
}

/** The one verdict of each agent, v1 against none. */
function verdictsByAgent(verdicts: readonly ArmVerdict[]): Record<string, ArmVerdict> {
  expect(verdicts.map(({ agentName, arm, baseline }) => ({ agentName, arm, baseline }))).toEqual(
    SKILL_PRESETS.map((agentName) => ({ agentName, arm: 'v1', baseline: 'none' })),
  );
  return Object.fromEntries(verdicts.map((verdict) => [verdict.agentName, verdict]));
}

const unavailable = offlineUnavailable();

describe.skipIf(unavailable !== undefined)('skill arms through gz-bench run, all five CLIs, offline', () => {
  it('v1’s skill reaches each CLI’s model, which loads it by its own route and passes; none fails', async () => {
    const trials = 2;
    const report = await runArms(
      SKILL_PRESETS,
      skillScript('any', SKILL, { plainPrompt: NEGATIVE.prompt }),
      ['--trials', String(trials), '--concurrency', String(CONCURRENCY)],
      240_000,
    );
    expect(report.results).toHaveLength(SKILL_PRESETS.length * 2 * SUITE.cases.length * trials);
    expectSkillsOutOfChanges(report);
    for (const name of SKILL_PRESETS) {
      const route = SKILL_ROUTES[name];
      for (const row of rowsOf(report, name, POSITIVE.id, 'v1')) {
        expect(row.passed, shown(row)).toBe(true);
        expect(row.skills, shown(row)).toEqual([
          {
            name: SKILL.name,
            advertised: true,
            used: true,
            step: expect.any(Number),
            route: route.route,
            tool: route.trajectoryTool,
          },
        ]);
        expect(changedPaths(row), shown(row)).toEqual([...(V1_LEFTOVERS[name] ?? []), ANSWER_FILE]);
      }
      for (const row of rowsOf(report, name, POSITIVE.id, 'none')) {
        // The answer the task needs is in the skill alone: without it the model writes nothing.
        expect(row.passed, shown(row)).toBe(false);
        expect(row.checkResults[0], shown(row)).toMatchObject({ kind: 'fileContains', passed: false });
        expect(row, shown(row)).not.toHaveProperty('skills');
        expect(changedPaths(row), shown(row)).toEqual([]);
      }
      for (const arm of ['none', 'v1']) {
        for (const row of rowsOf(report, name, NEGATIVE.id, arm)) {
          expect(row.passed, shown(row)).toBe(true);
          const leftovers = arm === 'v1' ? (V1_LEFTOVERS[name] ?? []) : [];
          expect(changedPaths(row), shown(row)).toEqual([...leftovers, PLAIN_FILE.path]);
        }
      }
      for (const row of rowsOf(report, name, NEGATIVE.id, 'v1')) {
        // Shown (where the CLI lists what it offered) but not loaded: its own check asserts just that.
        const advertised = LISTS_OFFERED.has(name) ? { advertised: true } : {};
        expect(row.skills, shown(row)).toEqual([{ name: SKILL.name, ...advertised, used: false }]);
      }
      for (const row of rowsOf(report, name, NEGATIVE.id, 'none')) {
        expect(row, shown(row)).not.toHaveProperty('skills');
      }
    }

    // Per agent, v1 against none over both cases: v1 passes all 4 trials, none the negative case's 2.
    // The difference is a mean over the cases of each one's, with Wilson's intervals over its trials:
    // 2 of 2 is not yet sure of itself, so the tie widens the interval across 0 (3 trials a side would
    // say `helps`). The skill triggered in the positive case's trials alone.
    const verdicts = verdictsByAgent(report.scoreboard?.arms ?? []);
    for (const name of SKILL_PRESETS) {
      const verdict = verdicts[name];
      expect(verdict).toMatchObject({
        pairedCases: 2,
        trials: 2 * trials,
        baselineTrials: 2 * trials,
        passRate: 1,
        baselinePassRate: 0.5,
        difference: 0.5,
        effect: 'noEvidence',
        trigger: { used: trials, trials: 2 * trials, rate: 0.5 },
      });
      expect(verdict?.interval.low).toBeLessThan(0);
      expect(verdict?.interval.high).toBeGreaterThan(0.5);
    }
    // Over the positive case alone, the same rows say v1 helps: 2 of 2 against 0 of 2, the skill
    // loaded in every trial.
    const positive = armVerdicts(report.results.filter((row) => row.id === POSITIVE.id));
    for (const verdict of Object.values(verdictsByAgent(positive))) {
      expect(verdict).toMatchObject({
        pairedCases: 1,
        difference: 1,
        effect: 'helps',
        trigger: { used: trials, trials, rate: 1 },
      });
      expect(verdict.interval.low).toBeGreaterThan(0);
    }
  }, 250_000);

  it('a model that ignores the skill fails in both arms alike: no evidence, and no trigger', async () => {
    const report = await runArms(
      SKILL_PRESETS,
      skillScript('any', SKILL, { behaviour: 'ignore' }),
      ['--case', POSITIVE.id, '--concurrency', String(CONCURRENCY)],
      120_000,
    );
    expect(report.results).toHaveLength(SKILL_PRESETS.length * 2);
    expectSkillsOutOfChanges(report);
    for (const name of SKILL_PRESETS) {
      for (const arm of ['none', 'v1']) {
        for (const row of rowsOf(report, name, POSITIVE.id, arm)) {
          expect(row.passed, shown(row)).toBe(false);
          // answer.txt is there (below), but without the marker.
          expect(row.checkResults[0], shown(row)).toMatchObject({ kind: 'fileContains', passed: false });
          const leftovers = arm === 'v1' ? (V1_LEFTOVERS[name] ?? []) : [];
          expect(changedPaths(row), shown(row)).toEqual([...leftovers, ANSWER_FILE]);
        }
      }
      for (const row of rowsOf(report, name, POSITIVE.id, 'v1')) {
        const advertised = LISTS_OFFERED.has(name) ? { advertised: true } : {};
        expect(row.skills, shown(row)).toEqual([{ name: SKILL.name, ...advertised, used: false }]);
      }
    }
    const verdicts = verdictsByAgent(report.scoreboard?.arms ?? []);
    for (const verdict of Object.values(verdicts)) {
      expect(verdict).toMatchObject({
        pairedCases: 1,
        passRate: 0,
        baselinePassRate: 0,
        difference: 0,
        effect: 'noEvidence',
        trigger: { used: 0, trials: 1, rate: 0 },
      });
    }
  }, 130_000);

  it('claude-code: a model that edits the installed SKILL.md through its shell is reported, and warned of', async () => {
    const name = 'claude-code';
    const report = await runArms(
      [name],
      skillScript(name, SKILL, { behaviour: 'edit' }),
      ['--arm', 'v1=bench/skills/pdf', '--case', POSITIVE.id],
      60_000,
    );
    const [row, ...others] = report.results;
    expect(others).toEqual([]);
    expect(row).toMatchObject({ agentName: name, arm: 'v1', id: POSITIVE.id });
    if (row === undefined) return;
    // Appending to SKILL.md is no load of it: the model never read the skill's instructions.
    expect(row.skills, shown(row)).toEqual([
      { name: SKILL.name, advertised: true, used: false, edits: ['edited SKILL.md'] },
    ]);
    expect(row.warnings, shown(row)).toContain(`the agent changed the skill ${SKILL.name}: edited SKILL.md`);
    // The skill was installed before the snapshot: what the agent did to it is its change, and only that.
    expect(row.changes?.files, shown(row)).toEqual([
      expect.objectContaining({ path: `.claude/skills/${SKILL.name}/SKILL.md`, status: 'modified', linesAdded: 1 }),
    ]);
  }, 70_000);
});

if (unavailable !== undefined) {
  it.skip(`real agent CLIs through gz-bench: ${unavailable}`, () => {});
}
