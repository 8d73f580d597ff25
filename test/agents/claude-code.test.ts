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

// Claude Code from node_modules through the claude-code preset's command, at ANTHROPIC_BASE_URL
// (the Messages API, streamed), offline.
const write: WriteCall = (path, content) => ({ name: 'Write', arguments: { file_path: path, content } });
const served = 'claude-sonnet-4-5-20250929';
const dispose = disposeRunsAfterAll();
const anthropicEnv = (origin: string) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' });
// The CLI reports each command as the model gave it.
const EXPECT_COMMAND = (command: string) => command;
const spec = (script: typeof longScript, user?: 'nobody'): PresetRun => ({
  definition: preset('claude-code', { model: 'claude-sonnet-4-5' }),
  script: (workspace) => script(workspace, write, served),
  endpointEnv: (origin) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
  ...(user === undefined ? {} : { user }),
});

describe.skipIf(offlineUnavailable() !== undefined)('claude-code preset against the real Claude Code', () => {
  it('does the scripted work over 15 model calls, and its usage is the endpoint’s to the token', async () => {
    const { usage } = await runPreset(spec(longScript), LONG_STEPS, dispose);
    // Anthropic counts cache reads and writes beside the input; the cost is Claude Code's own
    // estimate from its price list, so only its presence is the endpoint's doing.
    expect(usage).toEqual({
      inputTokens: LONG_TOTALS.input,
      outputTokens: LONG_TOTALS.output,
      cachedInputTokens: LONG_TOTALS.cachedInput,
      cacheWriteTokens: LONG_TOTALS.cacheWrite,
      costUsd: expect.any(Number),
      costSource: 'agent',
      model: served,
      turns: LONG_STEPS,
      toolCalls: LONG_STEPS - 1,
    });
    expect(usage?.costUsd).toBeGreaterThan(0);
  });
});

describe.skipIf(offlineUnavailable() !== undefined)('claude-code trajectory from the real CLI', () => {
  const shell: ShellCall = (command) => ({ name: 'Bash', arguments: { command, description: 'Run it' } });
  it('lists exactly the shell commands it ran, in order, with their results, and the final text', async () => {
    const definition = preset('claude-code', { model: 'claude-sonnet-4-5' });
    const { run } = await runPreset(
      { definition, script: (workspace) => shellScript(workspace, shell, served), endpointEnv: anthropicEnv },
      SHELL_STEPS,
      dispose,
    );
    const trajectory = await shellTrajectory(run, definition, 'claude-code.shell');
    expect(toolCalls(trajectory, 'command')).toEqual(
      shellCommands(run.workspace).map((command) => ({ name: 'Bash', command: EXPECT_COMMAND(command) })),
    );
    const results = toolResults(trajectory);
    expect(results[1]?.content).toContain('hi');
    expect(results[2]?.content).toContain('no-such-file');
    expect(results.map((result) => result.isError)).toEqual([false, false, true]);
    expect(finalText(trajectory)).toBe(SHELL_FINAL_TEXT);
  });
});

describe.skipIf(offlineUnavailable('nobody') !== undefined)(
  'claude-code preset as nobody (when the tests run as root)',
  () => {
    it('runs as nobody too', async () => {
      const { usage } = await runPreset(spec(shortScript, 'nobody'), 2, dispose);
      expect(usage).toMatchObject({ inputTokens: 3100, outputTokens: 52, model: served, turns: 2, toolCalls: 1 });
    });
  },
);

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
