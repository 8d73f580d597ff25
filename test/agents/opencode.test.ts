import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, runPreset } from './offline-run.js';

// opencode from node_modules through the opencode preset's command, its seeded `gz-bench` provider
// at OPENAI_BASE_URL (chat completions), offline.
const write: WriteCall = (path, content) => ({ name: 'write', arguments: { filePath: path, content } });
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
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
