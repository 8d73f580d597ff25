import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { probeSandbox, type Report, type Usage } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, expect, it } from 'vitest';
import { netnsPrefix, offlineUnavailable } from '../support/agent-cli.js';
import { cleanupAfterAll } from '../support/cleanup.js';
import { type ModelScript, startModelEndpoint } from '../support/model-endpoint/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run.js';

// Claude Code and Codex through gz-bench as a user runs them: `gz-bench run` with a preset, two
// trials, the whole run inside a network namespace that has only loopback, where 127.0.0.1:<port>
// leads to a scripted model endpoint outside. gz-bench makes each trial's workspace, so the script
// writes hello.txt with a relative path, through a shell tool that runs in the agent's directory.

const BRIDGE = join(REPO_ROOT, 'test', 'support', 'model-endpoint', 'netns-bridge.mjs');
const TRIALS = 2;
const { project } = cleanupAfterAll();

const SUITE = {
  name: 'hello',
  cases: [
    {
      id: 'hello',
      prompt: 'Create hello.txt containing hi.',
      checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }],
    },
  ],
};

/** What the endpoint reports for each trial's two model calls, summed. */
const STEP_USAGE = [
  { input: 1500, output: 40, cachedInput: 300, cacheWrite: 120 },
  { input: 1600, output: 12, cachedInput: 500 },
] as const;

function helloScript(
  shellCall: { name: string; arguments: Record<string, unknown> },
  servedModel: string,
): ModelScript {
  const [first, second] = STEP_USAGE;
  return {
    servedModel,
    steps: [
      { kind: 'tool', ...shellCall, usage: first },
      { kind: 'text', text: 'Done: hello.txt holds hi.', usage: second },
    ],
  };
}

interface Scene {
  agent: string;
  script: ModelScript;
  endpointEnv: (origin: string) => Record<string, string>;
  sandbox: 'none' | 'bwrap';
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout).slice(-4000)}\n--- stderr\n${String(result.stderr).slice(-4000)}`;
}

/**
 * Runs `gz-bench run` on the suite with the agent, two trials, `--json`, inside the namespace, with a
 * private TMPDIR and an empty HOME (so that no login of this machine's user reaches the agent).
 */
async function runThroughGzBench(scene: Scene) {
  const p = await project({ 'bench/hello.bench.json': SUITE });
  const tmp = join(p.dir, 'tmp');
  const home = join(p.dir, 'home');
  await mkdir(tmp);
  await mkdir(home);
  const socketPath = join(p.dir, 'endpoint.sock');
  const endpoint = await startModelEndpoint(scene.script, { socketPath });
  try {
    const port = new URL(endpoint.origin).port;
    const result = await runCli(
      [
        'run',
        'bench/hello.bench.json',
        '--agent',
        scene.agent,
        '--unsafe',
        '--trials',
        String(TRIALS),
        '--json',
        '--sandbox',
        scene.sandbox,
      ],
      {
        cwd: p.dir,
        env: { TMPDIR: tmp, HOME: home, ...scene.endpointEnv(endpoint.origin) },
        via: [...netnsPrefix('self', { mountProc: true }), process.execPath, BRIDGE, port, socketPath],
        timeoutMs: 120_000,
      },
    );
    return { result, endpoint, leftInTmp: await readdir(tmp) };
  } finally {
    await endpoint.close();
  }
}

/** Checks what every run must show, and returns the report. */
function expectTwoPassedTrials(
  run: Awaited<ReturnType<typeof runThroughGzBench>>,
  sandbox: Scene['sandbox'],
  agentName: string,
  usage: Usage,
) {
  const { result, endpoint, leftInTmp } = run;
  expect(result.exitCode, output(result)).toBe(0);
  const report = JSON.parse(String(result.stdout)) as Report;
  expect(
    report.results.map(({ id, agentName, trial, outcome, sandbox }) => ({ id, agentName, trial, outcome, sandbox })),
    output(result),
  ).toEqual([1, 2].map((trial) => ({ id: 'hello', agentName, trial, outcome: 'passed', sandbox })));
  for (const row of report.results) {
    expect(row.agent?.usage).toEqual(usage);
    // Its one shell command is the trajectory's one tool call, read in the preset's own format.
    expect(row.trajectory).toMatchObject({ format: row.agentName?.split(':')[0], toolCalls: 1 });
    // The model that served is the one asked for (a dated name of it): nothing to warn about but the
    // CLI's login, which this empty HOME does not hold (the endpoint's key stands in for it).
    const warnings = (row.warnings ?? []).filter((warning) => !/^the agent's login \S+ was not copied: /.test(warning));
    expect(warnings).toEqual([]);
  }
  // Each trial played the whole script, and asked for nothing the endpoint does not serve.
  expect(endpoint.unknown).toEqual([]);
  const played = endpoint.requests.flatMap((request) => (request.step === undefined ? [] : [request.step]));
  expect(played.sort()).toEqual([0, 0, 1, 1]);
  expect(leftInTmp).toEqual([]);
  return report;
}

/** The scoreboard's line of the agent: both trials passed, and its usage is theirs, summed. */
function expectScoreboard(report: Report, agentName: string, usage: Record<string, unknown>): void {
  expect(report.scoreboard?.agents).toHaveLength(1);
  const [board] = report.scoreboard?.agents ?? [];
  expect(board).toMatchObject({ name: agentName, passes: TRIALS, trials: TRIALS, errors: 0 });
  expect(board?.usage).toEqual({ trialsWithUsage: TRIALS, ...usage });
}

const unavailable = offlineUnavailable();
const { available: bwrapWorks } = await probeSandbox();
const sandboxes: Array<'none' | 'bwrap'> = bwrapWorks ? ['none', 'bwrap'] : ['none'];

describe.skipIf(unavailable !== undefined)('presets through gz-bench run, offline', () => {
  describe.each(sandboxes)('--sandbox %s', (sandbox) => {
    it('claude-code: two trials pass, each with the endpoint’s usage to the token', async () => {
      const served = 'claude-sonnet-4-5-20250929';
      const agentName = 'claude-code:claude-sonnet-4-5';
      const run = await runThroughGzBench({
        agent: agentName,
        script: helloScript(
          { name: 'Bash', arguments: { command: "printf 'hi\\n' > hello.txt", description: 'Write hello.txt' } },
          served,
        ),
        endpointEnv: (origin) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
        sandbox,
      });
      const usage: Usage = {
        inputTokens: 3100,
        outputTokens: 52,
        cachedInputTokens: 800,
        cacheWriteTokens: 120,
        costUsd: expect.any(Number),
        costSource: 'agent',
        model: served,
        turns: 2,
        toolCalls: 1,
      };
      const report = expectTwoPassedTrials(run, sandbox, agentName, usage);
      // The cost is Claude Code's own estimate from its price list: only its presence is the endpoint's doing.
      const costs = report.results.map((row) => row.agent?.usage?.costUsd ?? 0);
      for (const cost of costs) expect(cost).toBeGreaterThan(0);
      expectScoreboard(report, agentName, {
        inputTokens: 6200,
        outputTokens: 104,
        cachedInputTokens: 1600,
        costUsd: expect.closeTo(
          costs.reduce((total, cost) => total + cost, 0),
          10,
        ),
        costIsEstimate: true,
        models: [served],
      });
    });

    it('codex: two trials pass, each with the endpoint’s usage to the token', async () => {
      const agentName = 'codex:gpt-5-codex';
      const run = await runThroughGzBench({
        agent: agentName,
        script: helloScript({ name: 'exec_command', arguments: { cmd: "printf 'hi\\n' > hello.txt" } }, 'gpt-5-codex'),
        endpointEnv: (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
        sandbox,
      });
      // Codex counts cached tokens as part of its input, as the Responses API does; it reports no
      // model, cost or count of model calls.
      const usage: Usage = {
        inputTokens: 3100,
        outputTokens: 52,
        cachedInputTokens: 800,
        cacheWriteTokens: 0,
        toolCalls: 1,
      };
      const report = expectTwoPassedTrials(run, sandbox, agentName, usage);
      expectScoreboard(report, agentName, {
        inputTokens: 6200,
        outputTokens: 104,
        cachedInputTokens: 1600,
        costIsEstimate: false,
        models: [],
      });
    });
  });
});

if (unavailable !== undefined) {
  it.skip(`real agent CLIs through gz-bench: ${unavailable}`, () => {});
}
