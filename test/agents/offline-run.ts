import { readFile } from 'node:fs/promises';
import { afterAll, expect } from 'vitest';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import { extractUsage } from '../../packages/core/src/agents/usage/extract-usage.js';
import type { Usage } from '../../packages/core/src/report/model.js';
import { type AgentUser, type OfflineRun, runAgentOffline, workspaceFile } from '../support/agent-cli.js';
import type { ModelScript } from '../support/model-endpoint/index.js';
import { expectAllowed, expectCleanExit, expectScriptPlayed } from './offline-checks.js';

/** What one offline test of a preset runs. */
export interface PresetRun {
  definition: AgentDefinition;
  script: (workspace: string) => ModelScript;
  endpointEnv: (origin: string) => Record<string, string>;
  /** Variables a test sets beyond what a user would (offline switches); not checked against allowEnv. */
  testEnv?: Record<string, string>;
  user?: AgentUser;
}

/** Removes every run's area after the file. Call once at the top level of a test file. */
export function disposeRunsAfterAll(): (run: { dispose(): Promise<void> }) => void {
  const disposals: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(disposals.map((dispose) => dispose()));
  });
  return (run) => disposals.push(() => run.dispose());
}

/**
 * Runs the preset's command for real against the script, checks that it exited 0, wrote hello.txt,
 * played every step and asked for nothing else, and resolves to the usage extracted from its stdout.
 */
export async function runPreset(
  spec: PresetRun,
  steps: number,
  dispose: (run: { dispose(): Promise<void> }) => void,
): Promise<{ run: OfflineRun; usage: Usage | undefined }> {
  expectAllowed(spec.definition, Object.keys(spec.endpointEnv('')));
  const run = await runAgentOffline({
    definition: spec.definition,
    script: spec.script,
    endpointEnv: (origin) => ({ ...spec.endpointEnv(origin), ...spec.testEnv }),
    prompt: '- Create hello.txt containing hi, then a few more files.',
    timeoutMs: 100_000,
    ...(spec.user === undefined ? {} : { user: spec.user }),
  });
  dispose(run);
  expectCleanExit(run, await readFile(run.stdoutFile, 'utf8'));
  expect(await workspaceFile(run, 'hello.txt')).toBe('hi\n');
  expectScriptPlayed(run, steps);
  const usage = await extractUsage(run.stdoutFile, spec.definition.usage ?? { builtin: '' }, { maxBytes: 8 << 20 });
  return { run, usage };
}
