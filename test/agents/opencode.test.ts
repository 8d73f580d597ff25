import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { resultMarks } from '../../packages/core/src/agents/trajectory/result-marks.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, type ShellCall, shellScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, runPreset } from './offline-run.js';
import { expectShellTrajectory, presetTrajectory } from './shell-trajectory.js';

// opencode from node_modules through the opencode preset's command, its seeded `gz-bench` provider
// at OPENAI_BASE_URL (chat completions), offline.
const write: WriteCall = (path, content) => ({ name: 'write', arguments: { filePath: path, content } });
const shell: ShellCall = (command) => ({ name: 'bash', arguments: { command, description: `Runs ${command}` } });
const dispose = disposeRunsAfterAll();

describe.skipIf(offlineUnavailable() !== undefined)('opencode preset against the real opencode', () => {
  it('does the scripted work over 15 model calls, and its usage is the endpoint’s to the token', async () => {
    const { usage } = await runPreset(
      {
        definition: preset('opencode', { model: 'gz-bench/test-model' }),
        script: (workspace) => longScript(workspace, write, 'test-model-served'),
        endpointEnv: (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
        // Offline, opencode's catalogue of models and its default plugins cannot be fetched anyway.
        testEnv: { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1' },
      },
      LONG_STEPS,
      dispose,
    );
    // opencode's input is the uncached part, its cache reads beside it; it prices no custom model
    // and names none.
    expect(usage).toEqual({
      inputTokens: LONG_TOTALS.input - LONG_TOTALS.cachedInput,
      outputTokens: LONG_TOTALS.output,
      cachedInputTokens: LONG_TOTALS.cachedInput,
      cacheWriteTokens: 0,
      turns: LONG_STEPS,
      toolCalls: LONG_STEPS - 1,
    });
  });

  it('its trajectory lists the shell commands it ran, in order, with their output and exit codes', async () => {
    const definition = preset('opencode', { model: 'gz-bench/test-model' });
    const { run } = await runPreset(
      {
        definition,
        script: () => shellScript(shell, 'test-model-served'),
        endpointEnv: (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
        testEnv: { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1' },
      },
      4,
      dispose,
    );
    const trajectory = await presetTrajectory(run.stdoutFile, definition, 'opencode.shell');
    expectShellTrajectory(trajectory, 'bash', [
      '(no output)',
      'cat: missing.txt: No such file or directory',
      '3 hello.txt',
    ]);
    const marks = trajectory.steps.flatMap((step) =>
      (step.observation?.results ?? []).map((_result, index) => resultMarks(step, index)),
    );
    expect(marks.map((mark) => mark?.exit_code)).toEqual([0, 1, 0]);
    // Per-step figures as the endpoint reported them: every input token, the cached ones among them.
    expect(trajectory.steps.map((step) => step.metrics)).toEqual([
      undefined,
      { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 0 },
      { prompt_tokens: 1300, completion_tokens: 31, cached_tokens: 200 },
      { prompt_tokens: 1400, completion_tokens: 32, cached_tokens: 0 },
      { prompt_tokens: 1500, completion_tokens: 33, cached_tokens: 0 },
    ]);
    expect(trajectory.session_id).toMatch(/^ses_/);
    expect(trajectory.final_metrics).toMatchObject({ total_prompt_tokens: 5400, total_completion_tokens: 126 });
  });
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
