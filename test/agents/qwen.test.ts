import { describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, type WriteCall } from './long-script.js';
import { disposeRunsAfterAll, runPreset } from './offline-run.js';

// Qwen Code from node_modules through the qwen preset's command, at OPENAI_BASE_URL (chat
// completions), offline.
const write: WriteCall = (path, content) => ({ name: 'write_file', arguments: { file_path: path, content } });
const dispose = disposeRunsAfterAll();

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

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
