import { agentPath } from './paths.js';
import type { CaseSpec } from './suite.js';

/** An agent template that runs fixtures/agents/scripted.mjs on the prompt. */
export const SCRIPTED_CMD = `node '${agentPath('scripted.mjs')}' "{{prompt}}"`;

/** A case that asks the scripted agent to reply `word`, and passes when its output has `expected` as a line. */
export function replyCase(id: string, word: string, expected = word): CaseSpec {
  return {
    id,
    prompt: `Reply with '${word}'.`,
    checks: [{ kind: 'outputMatches', pattern: `^${expected}$`, flags: 'm' }],
  };
}

/**
 * A vitest.config.ts that uses the gzBench plugin with these options (serialized, never pasted).
 * Unsandboxed unless the options say otherwise: instrumented agents write markers outside their
 * workspace, which the bwrap sandbox forbids; the sandbox has tests of its own.
 */
export function pluginConfig(options: Record<string, unknown>): string {
  return [
    "import { gzBench } from '@gz-bench/vitest-plugin';",
    "import { defineConfig } from 'vitest/config';",
    `export default defineConfig({ plugins: [gzBench(${JSON.stringify({ sandbox: 'none', ...options })})] });`,
    '',
  ].join('\n');
}

/** The package.json and vitest.config.ts of a user's ESM project that runs suites with the plugin. */
export function pluginProjectFiles(options: Record<string, unknown>): Record<string, string | object> {
  return {
    'package.json': { name: 'bench-user', private: true, type: 'module' },
    'vitest.config.ts': pluginConfig(options),
  };
}
