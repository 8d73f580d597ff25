import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import { preset } from '../../packages/core/src/agents/preset.js';
import { offlineUnavailable, runAgentOffline } from '../support/agent-cli.js';
import { expectCleanExit } from './offline-checks.js';
import { disposeRunsAfterAll } from './offline-run.js';

// A prompt longer than one argument may be (128 KiB on Linux) reaches the model whole through each
// preset, which gives it to its CLI on standard input: the real binaries, against a loopback model.

const dispose = disposeRunsAfterAll();
const START = 'GZB-LONG-PROMPT-START';
const END = 'GZB-LONG-PROMPT-END';

/** About 300 KB of numbered lines between two markers, so that the whole of it can be told to have arrived. */
function longPrompt(): string {
  const lines = [`${START}: read all of this, then reply ok.`];
  for (let line = 1; Buffer.byteLength(lines.join('\n')) < 300_000; line++) {
    lines.push(`line ${line}: the quick brown fox jumps over the lazy dog, again and again.`);
  }
  lines.push(END);
  return lines.join('\n');
}

const CASES: Array<[string, AgentDefinition, (origin: string) => Record<string, string>]> = [
  [
    'claude-code',
    preset('claude-code', { model: 'claude-sonnet-4-5' }),
    (origin) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
  ],
  [
    'codex',
    preset('codex', { model: 'gpt-5-codex' }),
    (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
  ],
  [
    'gemini',
    preset('gemini', { model: 'gemini-2.5-pro' }),
    (origin) => ({ GOOGLE_GEMINI_BASE_URL: origin, GEMINI_API_KEY: 'test-not-a-key' }),
  ],
  [
    'qwen',
    preset('qwen', { model: 'qwen3-coder-plus' }),
    (origin) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
  ],
  [
    'opencode',
    preset('opencode', { model: 'gz-bench/test-model' }),
    (origin) => ({
      OPENAI_BASE_URL: `${origin}/v1`,
      OPENAI_API_KEY: 'sk-test-not-a-key',
      // Offline, opencode's catalogue of models and its default plugins cannot be fetched anyway.
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    }),
  ],
];

describe.skipIf(offlineUnavailable() !== undefined)('a 300 KB prompt through each preset', () => {
  it.each(CASES)('%s gets all of it to the model', async (_name, definition, endpointEnv) => {
    const prompt = longPrompt();
    const run = await runAgentOffline({
      definition,
      script: { servedModel: 'served', steps: [{ kind: 'text', text: 'ok', usage: { input: 80_000, output: 1 } }] },
      endpointEnv,
      prompt,
      timeoutMs: 100_000,
    });
    dispose(run);
    expectCleanExit(run, await readFile(run.stdoutFile, 'utf8'));
    const asked = run.endpoint.requests.filter((request) => !request.side);
    expect(asked.length, 'model requests that offered tools').toBeGreaterThan(0);
    // The prompt as the CLI sent it, in its own JSON: every line, in order, markers and all.
    const sent = JSON.stringify(asked[0]?.body);
    expect(sent).toContain(START);
    expect(sent).toContain(END);
    const lines = prompt.split('\n').length - 2;
    expect(sent).toContain(`line ${lines}: the quick brown fox`);
    expect(sent.indexOf(START)).toBeLessThan(sent.indexOf(END));
  });
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
