import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, shortScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, type PresetRun, runPreset } from './offline-run.js';

// Claude Code from node_modules through the claude-code preset's command, at ANTHROPIC_BASE_URL
// (the Messages API, streamed), offline.
const write: WriteCall = (path, content) => ({ name: 'Write', arguments: { file_path: path, content } });
const served = 'claude-sonnet-4-5-20250929';
const dispose = disposeRunsAfterAll();
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
