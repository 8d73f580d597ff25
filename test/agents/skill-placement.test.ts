import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import { preset } from '../../packages/core/src/agents/preset.js';
import { assembleTrajectory } from '../../packages/core/src/agents/trajectory/assemble.js';
import { agentTrajectoryFormat } from '../../packages/core/src/agents/trajectory/formats.js';
import { TrajectorySchema } from '../../packages/core/src/agents/trajectory/schema.js';
import type { Trajectory } from '../../packages/core/src/agents/trajectory/types.js';
import { readAgentOutput } from '../../packages/core/src/agents/usage/extract-usage.js';
import {
  type InstalledSkill,
  installSkills,
  type SkillPlacement,
} from '../../packages/core/src/skills/install-skills.js';
import { loadSkill, type Skill } from '../../packages/core/src/skills/load-skill.js';
import { skillUse } from '../../packages/core/src/skills/skill-evidence.js';
import { skillPlacement } from '../../packages/core/src/skills/skill-placement.js';
import { type OfflineRun, offlineUnavailable, runAgentOffline, workspaceFile } from '../support/agent-cli.js';
import { cleanupAfterAll } from '../support/cleanup.js';
import { REPO_ROOT } from '../support/paths.js';
import { expectCleanExit, expectScriptPlayed } from './offline-checks.js';
import { disposeRunsAfterAll } from './offline-run.js';
import {
  ANSWER_FILE,
  NOT_ADVERTISED_TEXT,
  type ScriptedSkill,
  SKILL_FINAL_TEXT,
  SKILL_ROUTES,
  type SkillPreset,
  skillScript,
  skillSeen,
  toolParameters,
  writeSkillFolder,
} from './skill-script.js';

// Each preset's CLI from node_modules, offline, with one skill installed where the preset says the
// CLI discovers skills (the workspace's, then HOME's), or none: the model must be shown the skill's
// name and description, load it by the CLI's own route, and get its body back, and the trajectory
// gz-bench reads from the CLI's stdout must show that load at its step.

const SKILL: ScriptedSkill = {
  name: 'gzb-probe-notes',
  description: 'Explains how to answer questions about the gz-bench probe; use it for every task in this workspace.',
  marker: 'SKILL-BODY-MARKER-7c41e9',
};
const PROMPT = 'Do what your instructions say, then stop.';
// Qwen Code's own ripgrep, for opencode (below).
const RIPGREP = join(
  REPO_ROOT,
  'node_modules/@qwen-code/qwen-code/vendor/ripgrep',
  `${process.arch}-${process.platform}`,
  'rg',
);
const openai = (origin: string) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' });
/** How each preset's CLI is run here: its model, the variables that point it at the endpoint, what its HOME needs. */
interface SkillAgent {
  model: string;
  endpointEnv: (origin: string) => Record<string, string>;
  prepare?: (roots: { workspace: string; home: string }) => Promise<void>;
}
const AGENTS: Record<SkillPreset, SkillAgent> = {
  'claude-code': {
    model: 'claude-sonnet-4-5',
    endpointEnv: (origin) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
  },
  codex: { model: 'gpt-5-codex', endpointEnv: openai },
  gemini: {
    model: 'gemini-2.5-pro',
    endpointEnv: (origin) => ({ GOOGLE_GEMINI_BASE_URL: origin, GEMINI_API_KEY: 'test-not-a-key' }),
  },
  qwen: { model: 'qwen3-coder-plus', endpointEnv: openai },
  opencode: {
    model: 'gz-bench/test-model',
    // Offline, opencode's catalogue of models and its default plugins cannot be fetched anyway.
    endpointEnv: (origin) => ({
      ...openai(origin),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    }),
    // opencode's skill tool lists the skill's folder with ripgrep: `rg` on PATH, else its own copy in
    // ~/.cache/opencode/bin, else one it downloads from GitHub, which fails offline ("ripgrep
    // execution failed"). This machine may have none on PATH: its copy is Qwen Code's vendored one.
    prepare: async ({ home }) => {
      const bin = join(home, '.cache', 'opencode', 'bin');
      await mkdir(bin, { recursive: true });
      await copyFile(RIPGREP, join(bin, 'rg'));
    },
  },
};

const dispose = disposeRunsAfterAll();
const { project } = cleanupAfterAll();
let skill: Skill;

beforeAll(async () => {
  const source = await project();
  skill = await loadSkill(await writeSkillFolder(source.dir, SKILL));
});

/** Runs the preset's CLI on the skill conversation, with the skill installed at `placement` (or nowhere). */
async function runWithSkill(
  name: SkillPreset,
  placement: SkillPlacement | undefined,
): Promise<{ run: OfflineRun; definition: AgentDefinition; installed: InstalledSkill[] }> {
  const agent = AGENTS[name];
  const definition = preset(name, { model: agent.model });
  let installed: InstalledSkill[] = [];
  const run = await runAgentOffline({
    definition,
    script: skillScript(name, SKILL),
    endpointEnv: agent.endpointEnv,
    prompt: PROMPT,
    timeoutMs: 100_000,
    prepare: async (roots) => {
      await agent.prepare?.(roots);
      if (placement !== undefined) installed = await installSkills([skill], placement, roots);
    },
  });
  dispose(run);
  expectCleanExit(run, await readFile(run.stdoutFile, 'utf8'));
  return { run, definition, installed };
}

/** The trajectory gz-bench reads from the run's stdout, validated against the ATIF schema. */
async function trajectoryOf(run: OfflineRun, definition: AgentDefinition): Promise<Trajectory> {
  const format = agentTrajectoryFormat(definition);
  const read = await readAgentOutput(
    run.stdoutFile,
    { usage: definition.usage, trajectory: format },
    { maxBytes: 8 << 20 },
  );
  const trajectory = assembleTrajectory({
    format: format ?? '',
    stream: read.stream ?? { steps: [] },
    prompt: PROMPT,
    usage: read.usage,
    agent: { name: definition.name, ...(definition.preset !== undefined && { preset: definition.preset }) },
  });
  TrajectorySchema.parse(trajectory);
  return trajectory;
}

describe.skipIf(offlineUnavailable() !== undefined).concurrent('skills where each real CLI discovers them', () => {
  for (const name of Object.keys(AGENTS) as SkillPreset[]) {
    const route = SKILL_ROUTES[name];
    for (const scope of ['project', 'user'] as const) {
      const placement = skillPlacement(preset(name), scope);
      const where = `${scope === 'project' ? 'the workspace' : 'HOME'}'s ${placement.dir}`;
      const how = route.route === 'tool' ? route.tool : `a read of SKILL.md through ${route.tool}`;
      it(`${name}: a skill in ${where} reaches the model, which loads it with ${how}`, async () => {
        const { run, definition, installed } = await runWithSkill(name, placement);
        const first = run.endpoint.requests.find((request) => request.step === 0);
        expect(first?.toolNames, 'the route is a tool the CLI offers').toContain(route.tool);
        expect(first && toolParameters(first, route.tool), `${route.tool}'s parameters`).toContain(route.argument);
        expect(skillSeen(run.endpoint.requests, SKILL)).toEqual({ advertised: true, bodyUpFront: false, loaded: true });
        expect(first?.reply).toMatchObject({ kind: 'tool', name: route.tool });
        expectScriptPlayed(run, 3);
        expect(await workspaceFile(run, ANSWER_FILE)).toBe(`${SKILL.marker}\n`);
        const trajectory = await trajectoryOf(run, definition);
        // The first agent step (Codex puts a system step of its warnings before it).
        const firstAgentStep = trajectory.steps.find((step) => step.source === 'agent')?.step_id;
        const dirs = installed.map((each) => each.dir);
        expect(skillUse(trajectory, SKILL.name, dirs)).toEqual({
          step: firstAgentStep,
          route: route.route,
          tool: route.trajectoryTool,
        });
        expect(trajectory.steps.at(-1)?.message).toBe(SKILL_FINAL_TEXT);
      });
    }

    it(`${name}: with no skill installed, the model is shown none and the trajectory shows none used`, async () => {
      const { run, definition } = await runWithSkill(name, undefined);
      const first = run.endpoint.requests.find((request) => request.step === 0);
      expect(first).toBeDefined();
      expect(JSON.stringify(first?.body)).not.toContain(SKILL.name);
      expect(JSON.stringify(first?.body)).not.toContain(SKILL.description);
      expect(skillSeen(run.endpoint.requests, SKILL)).toEqual({ advertised: false, bodyUpFront: false, loaded: false });
      expectScriptPlayed(run, 1);
      expect(await workspaceFile(run, ANSWER_FILE)).toBeUndefined();
      const trajectory = await trajectoryOf(run, definition);
      const nowhere = join(run.workspace, skillPlacement(definition, 'project').dir, SKILL.name);
      expect(skillUse(trajectory, SKILL.name, [nowhere])).toBeUndefined();
      expect(trajectory.steps.at(-1)?.message).toBe(NOT_ADVERTISED_TEXT);
    });
  }
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
