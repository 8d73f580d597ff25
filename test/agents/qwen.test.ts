import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, runPreset } from './offline-run.js';
import {
  finalText,
  SHELL_FINAL_TEXT,
  SHELL_STEPS,
  type ShellCall,
  shellCommands,
  shellScript,
  shellTrajectory,
  toolCalls,
  toolResults,
} from './shell-script.js';

// Qwen Code from node_modules through the qwen preset's command, at OPENAI_BASE_URL (chat
// completions), offline.
const write: WriteCall = (path, content) => ({ name: 'write_file', arguments: { file_path: path, content } });
const dispose = disposeRunsAfterAll();
const openaiEnv = (origin: string) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' });
// The CLI reports each command as the model gave it.
const EXPECT_COMMAND = (command: string) => command;

describe.skipIf(offlineUnavailable() !== undefined)('qwen preset against the real Qwen Code', () => {
  it('does the scripted work over 15 model calls, and its usage is the endpoint’s to the token', async () => {
    const { usage } = await runPreset(
      {
        definition: preset('qwen', { model: 'qwen3-coder-plus' }),
        script: (workspace) => longScript(workspace, write, 'qwen3-coder-plus-served'),
        endpointEnv: (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
      },
      LONG_STEPS,
      dispose,
    );
    // Qwen Code counts cached tokens within its input, as chat completions do, and names the model
    // it asked for, not the one that served.
    expect(usage).toEqual({
      inputTokens: LONG_TOTALS.input,
      outputTokens: LONG_TOTALS.output,
      cachedInputTokens: LONG_TOTALS.cachedInput,
      model: 'qwen3-coder-plus',
      turns: LONG_STEPS,
      toolCalls: LONG_STEPS - 1,
    });
  });
});

describe.skipIf(offlineUnavailable() !== undefined)('qwen trajectory from the real CLI', () => {
  const shell: ShellCall = (command) => ({ name: 'run_shell_command', arguments: { command, is_background: false } });
  it('lists exactly the shell commands it ran, in order, with their results, and the final text', async () => {
    const definition = preset('qwen', { model: 'qwen3-coder-plus' });
    const { run } = await runPreset(
      {
        definition,
        script: (workspace) => shellScript(workspace, shell, 'qwen3-coder-plus-served'),
        endpointEnv: openaiEnv,
      },
      SHELL_STEPS,
      dispose,
    );
    const trajectory = await shellTrajectory(run, definition, 'qwen.shell');
    expect(toolCalls(trajectory, 'command')).toEqual(
      shellCommands(run.workspace).map((command) => ({ name: 'run_shell_command', command: EXPECT_COMMAND(command) })),
    );
    const results = toolResults(trajectory);
    expect(results[1]?.content).toContain('hi');
    expect(results[2]?.content).toContain('no-such-file');
    // Qwen Code reports a command that exits non-zero as a successful call (its own stats count no
    // failure) and prints only its stderr: there is no error for the trajectory to say.
    expect(results.map((result) => result.isError)).toEqual([false, false, false]);
    expect(finalText(trajectory)).toBe(SHELL_FINAL_TEXT);
  });
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
