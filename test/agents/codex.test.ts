import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, shortScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, type PresetRun, runPreset } from './offline-run.js';
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

// Codex from node_modules through the codex preset's command, its provider being the seeded
// `gz-bench` one at OPENAI_BASE_URL (the Responses API), offline.
const write: WriteCall = (path, content) => ({
  name: 'exec_command',
  arguments: { cmd: `printf '%s' '${content.replaceAll("'", '')}' > '${path}'` },
});
const dispose = disposeRunsAfterAll();
const openaiEnv = (origin: string) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' });
// Codex reports each command as the shell line it ran it with.
const EXPECT_COMMAND = (command: string) => `/bin/bash -lc '${command}'`;
const spec = (script: typeof longScript, user?: 'nobody'): PresetRun => ({
  definition: preset('codex', { model: 'gpt-5-codex' }),
  script: (workspace) => script(workspace, write, 'gpt-5-codex-served'),
  endpointEnv: (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
  ...(user === undefined ? {} : { user }),
});

describe.skipIf(offlineUnavailable() !== undefined)('codex preset against the real Codex', () => {
  it('does the scripted work over 15 model calls, and its usage is the endpoint’s to the token', async () => {
    const { usage } = await runPreset(spec(longScript), LONG_STEPS, dispose);
    // Codex counts cached tokens as part of its input, as the Responses API does; it reports no
    // model, cost or count of model calls.
    expect(usage).toEqual({
      inputTokens: LONG_TOTALS.input,
      outputTokens: LONG_TOTALS.output,
      cachedInputTokens: LONG_TOTALS.cachedInput,
      cacheWriteTokens: 0,
      toolCalls: LONG_STEPS - 1,
    });
  });
});

describe.skipIf(offlineUnavailable() !== undefined)('codex trajectory from the real CLI', () => {
  const shell: ShellCall = (command) => ({ name: 'exec_command', arguments: { cmd: command } });
  it('lists exactly the shell commands it ran, in order, with their results, and the final text', async () => {
    const definition = preset('codex', { model: 'gpt-5-codex' });
    const { run } = await runPreset(
      {
        definition,
        script: (workspace) => shellScript(workspace, shell, 'gpt-5-codex-served'),
        endpointEnv: openaiEnv,
      },
      SHELL_STEPS,
      dispose,
    );
    const trajectory = await shellTrajectory(run, definition, 'codex.shell');
    expect(toolCalls(trajectory, 'command')).toEqual(
      shellCommands(run.workspace).map((command) => ({ name: 'command_execution', command: EXPECT_COMMAND(command) })),
    );
    const results = toolResults(trajectory);
    expect(results[1]?.content).toContain('hi');
    expect(results[2]?.content).toContain('no-such-file');
    expect(results.map((result) => result.isError)).toEqual([false, false, true]);
    expect(finalText(trajectory)).toBe(SHELL_FINAL_TEXT);
  });
});

describe.skipIf(offlineUnavailable('nobody') !== undefined)(
  'codex preset as nobody (when the tests run as root)',
  () => {
    it('runs as nobody too', async () => {
      const { usage } = await runPreset(spec(shortScript, 'nobody'), 2, dispose);
      expect(usage).toEqual({
        inputTokens: 3100,
        outputTokens: 52,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        toolCalls: 1,
      });
    });
  },
);

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
