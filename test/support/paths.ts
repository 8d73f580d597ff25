import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The gz-bench CLI, as `pnpm install` links it. */
export const CLI_BIN = fileURLToPath(new URL('../../node_modules/.bin/gz-bench', import.meta.url));
/** Vitest's own CLI entry, run with the current Node. */
export const VITEST_BIN = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Absolute path of a fake agent in fixtures/agents. */
export function agentPath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/agents/${name}`, import.meta.url));
}

/** Absolute path of anything under fixtures/. */
export function fixturePath(relativePath: string): string {
  return fileURLToPath(new URL(`../../fixtures/${relativePath}`, import.meta.url));
}
