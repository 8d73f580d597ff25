import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { TrajectorySchema } from '../../packages/core/src/agents/trajectory/schema.js';
import { netnsPrefix, offlineUnavailable } from '../support/agent-cli.js';
import { cleanupAfterAll } from '../support/cleanup.js';
import { startModelEndpoint } from '../support/model-endpoint/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run.js';
import { SHELL_COMMANDS, SHELL_FINAL_TEXT, type ShellCall, shellScript } from './long-script.js';

// Gemini CLI and opencode through `gz-bench run` with their presets, offline (a network namespace with
// only loopback, where 127.0.0.1:<port> leads to the scripted endpoint): the trajectory.json beside
// each trial's log lists exactly the shell commands the script made, in order, with their output.

const BRIDGE = join(REPO_ROOT, 'test', 'support', 'model-endpoint', 'netns-bridge.mjs');
const PROMPT = 'Create hello.txt containing hi, then check it.';
const { project } = cleanupAfterAll();

interface Scene {
  agent: string;
  shell: ShellCall;
  served: string;
  endpointEnv: (origin: string) => Record<string, string>;
}

async function runScene(scene: Scene) {
  const suite = {
    name: 'shell',
    cases: [{ id: 'hello', prompt: PROMPT, checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }] }],
  };
  const p = await project({ 'bench/shell.bench.json': suite });
  const [tmp, home] = [join(p.dir, 'tmp'), join(p.dir, 'home')];
  await mkdir(tmp);
  await mkdir(home);
  const socketPath = join(p.dir, 'endpoint.sock');
  const endpoint = await startModelEndpoint(shellScript(scene.shell, scene.served), { socketPath });
  try {
    const port = new URL(endpoint.origin).port;
    const result = await runCli(
      ['run', 'bench/shell.bench.json', '--agent', scene.agent, '--unsafe', '--json', '--logs', 'logs'],
      {
        cwd: p.dir,
        env: { TMPDIR: tmp, HOME: home, ...scene.endpointEnv(endpoint.origin) },
        via: [...netnsPrefix('self', { mountProc: true }), process.execPath, BRIDGE, port, socketPath],
        timeoutMs: 120_000,
      },
    );
    const detail = `exit ${result.exitCode}\n${String(result.stdout).slice(-3000)}\n${String(result.stderr).slice(-3000)}`;
    expect(result.exitCode, detail).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    const [row] = report.results;
    expect(row?.outcome, detail).toBe('passed');
    expect(row?.trajectory).toMatchObject({ steps: 5, toolCalls: 3 });
    const file = row?.trajectory?.file;
    // Beside the trial's agent.log, named as the report names that one.
    expect(file).toBe(row?.agent?.log?.replace(/agent\.log$/, 'trajectory.json'));
    const trajectory = TrajectorySchema.parse(JSON.parse(await readFile(join(p.dir, file ?? ''), 'utf8')));
    return { trajectory, row };
  } finally {
    await endpoint.close();
  }
}

describe.skipIf(offlineUnavailable() !== undefined)('trajectory.json of real runs through gz-bench', () => {
  it.each<[string, Scene, string[]]>([
    [
      'gemini',
      {
        agent: 'gemini:gemini-2.5-pro',
        shell: (command) => ({ name: 'run_shell_command', arguments: { command } }),
        served: 'gemini-2.5-pro-served',
        endpointEnv: (origin) => ({ GOOGLE_GEMINI_BASE_URL: origin, GEMINI_API_KEY: 'test-not-a-key' }),
      },
      ['', 'cat: missing.txt: No such file or directory', '3 hello.txt'],
    ],
    [
      'opencode',
      {
        agent: 'opencode:gz-bench/test-model',
        shell: (command) => ({ name: 'bash', arguments: { command, description: `Runs ${command}` } }),
        served: 'test-model-served',
        endpointEnv: (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
      },
      ['(no output)', 'cat: missing.txt: No such file or directory', '3 hello.txt'],
    ],
  ])('%s: the prompt, each shell command with its output, then the final text', async (_name, scene, outputs) => {
    const { trajectory } = await runScene(scene);
    expect(trajectory.steps[0]).toMatchObject({ step_id: 1, source: 'user', message: PROMPT });
    const agentSteps = trajectory.steps.slice(1);
    expect(agentSteps.map((step) => step.source)).toEqual(['agent', 'agent', 'agent', 'agent']);
    expect(
      agentSteps.map((step) => ({
        calls: (step.tool_calls ?? []).map((call) => call.arguments.command),
        results: (step.observation?.results ?? []).map((result) => result.content?.trim()),
      })),
    ).toEqual([
      ...SHELL_COMMANDS.map((command, index) => ({ calls: [command], results: [outputs[index]] })),
      { calls: [], results: [] },
    ]);
    expect(agentSteps.at(-1)?.message).toBe(SHELL_FINAL_TEXT);
    expect(trajectory.final_metrics).toMatchObject({ total_prompt_tokens: 5400, total_completion_tokens: 126 });
  });
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
