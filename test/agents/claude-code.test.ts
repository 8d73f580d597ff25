import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { preset } from '../../packages/core/src/agents/preset.js';
import { extractUsage } from '../../packages/core/src/agents/usage/extract-usage.js';
import { type AgentUser, offlineUnavailable, runAgentOffline, workspaceFile } from '../support/agent-cli.js';
import { LONG_STEPS, LONG_TOTALS, longScript, shortScript, type WriteCall } from './long-script.js';
import { expectAllowed, expectCleanExit, expectScriptPlayed } from './offline-checks.js';

// Claude Code from node_modules (a pinned devDependency), driven by the scripted endpoint through
// the claude-code preset's own command, offline: a network namespace with loopback alone.
const write: WriteCall = (path, content) => ({ name: 'Write', arguments: { file_path: path, content } });
const served = 'claude-sonnet-4-5-20250929';
const endpointEnv = (origin: string) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' });
const disposals: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(disposals.map((dispose) => dispose()));
});

async function run(user: AgentUser, script: typeof longScript | typeof shortScript) {
  const definition = preset('claude-code', { model: 'claude-sonnet-4-5' });
  expectAllowed(definition, Object.keys(endpointEnv('')));
  const result = await runAgentOffline({
    definition,
    script: (workspace) => script(workspace, write, served),
    endpointEnv,
    prompt: '- Create hello.txt containing hi, then a few more files.',
    timeoutMs: 100_000,
    user,
  });
  disposals.push(result.dispose);
  const stdout = await readFile(result.stdoutFile, 'utf8');
  expectCleanExit(result, stdout);
  return { definition, result, stdout };
}

describe.skipIf(offlineUnavailable() !== undefined)('claude-code preset against the real Claude Code', () => {
  it('does the scripted work over 15 model calls, and its usage is the endpoint’s to the token', async () => {
    const { definition, result } = await run('self', longScript);
    expect(await workspaceFile(result, 'hello.txt')).toBe('hi\n');
    expectScriptPlayed(result, LONG_STEPS);
    const usage = await extractUsage(result.stdoutFile, definition.usage ?? { builtin: '' }, { maxBytes: 8 << 20 });
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

describe.skipIf(offlineUnavailable('nobody') !== undefined)('claude-code preset as an ordinary user', () => {
  it('runs as nobody too', async () => {
    const { definition, result } = await run('nobody', shortScript);
    expect(await workspaceFile(result, 'hello.txt')).toBe('hi\n');
    expectScriptPlayed(result, 2);
    const usage = await extractUsage(result.stdoutFile, definition.usage ?? { builtin: '' }, { maxBytes: 8 << 20 });
    expect(usage).toMatchObject({ inputTokens: 3100, outputTokens: 52, model: served, turns: 2, toolCalls: 1 });
  });
});

if (offlineUnavailable() !== undefined) {
  it.skip(`real agent CLIs: ${offlineUnavailable()}`, () => {});
}
