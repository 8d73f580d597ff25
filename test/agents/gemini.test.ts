import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, type ShellCall, shellScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, runPreset } from './offline-run.js';
import { expectShellTrajectory, presetTrajectory } from './shell-trajectory.js';

// Gemini CLI from node_modules through the gemini preset's command, at GOOGLE_GEMINI_BASE_URL, offline.
const write: WriteCall = (path, content) => ({ name: 'write_file', arguments: { file_path: path, content } });
const shell: ShellCall = (command) => ({ name: 'run_shell_command', arguments: { command } });
const dispose = disposeRunsAfterAll();

describe.skipIf(offlineUnavailable() !== undefined)('gemini preset against the real Gemini CLI', () => {
  it('does the scripted work over 15 model calls, and its usage is the endpoint’s to the token', async () => {
    const { usage } = await runPreset(
      {
        definition: preset('gemini', { model: 'gemini-2.5-pro' }),
        script: (workspace) => longScript(workspace, write, 'gemini-2.5-pro-served'),
        endpointEnv: (origin) => ({ GOOGLE_GEMINI_BASE_URL: origin, GEMINI_API_KEY: 'test-not-a-key' }),
      },
      LONG_STEPS,
      dispose,
    );
    // Gemini CLI's `input` is the uncached part of the prompt, its cached tokens beside it.
    expect(usage).toEqual({
      inputTokens: LONG_TOTALS.input - LONG_TOTALS.cachedInput,
      outputTokens: LONG_TOTALS.output,
      cachedInputTokens: LONG_TOTALS.cachedInput,
      model: 'gemini-2.5-pro-served',
      turns: LONG_STEPS,
      toolCalls: LONG_STEPS - 1,
    });
  });

  it('its trajectory lists the shell commands it ran, in order, with their output, then the final text', async () => {
    const definition = preset('gemini', { model: 'gemini-2.5-pro' });
    const { run, usage } = await runPreset(
      {
        definition,
        script: () => shellScript(shell, 'gemini-2.5-pro-served'),
        endpointEnv: (origin) => ({ GOOGLE_GEMINI_BASE_URL: origin, GEMINI_API_KEY: 'test-not-a-key' }),
      },
      4,
      dispose,
    );
    const trajectory = await presetTrajectory(run.stdoutFile, definition, 'gemini.shell');
    // Gemini CLI reports the failing command's output as a success: it prints no exit code.
    expectShellTrajectory(trajectory, 'run_shell_command', [
      '',
      'cat: missing.txt: No such file or directory',
      '3 hello.txt',
    ]);
    expect(trajectory.agent).toMatchObject({ name: 'gemini', model_name: 'gemini-2.5-pro-served' });
    expect(trajectory.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(trajectory.final_metrics).toMatchObject({ total_prompt_tokens: 5400, total_completion_tokens: 126 });
    expect(usage).toEqual({
      inputTokens: 5400 - 200,
      outputTokens: 126,
      cachedInputTokens: 200,
      model: 'gemini-2.5-pro-served',
      turns: 4,
      toolCalls: 3,
    });
  });
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
