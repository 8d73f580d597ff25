import { defineConfig } from 'vitest/config';

// The repository's own tests: fast unit tests beside the sources, and end-to-end tests that run the
// built packages through real Vitest and CLI processes on fixtures.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['packages/*/src/**/*.test.ts'] } },
      { test: { name: 'e2e', include: ['test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 60_000 } },
    ],
  },
});
