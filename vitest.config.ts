import { configDefaults, defineConfig } from 'vitest/config';

// The repository's own tests: fast unit tests beside the sources, and end-to-end tests that run the
// built packages through real Vitest and CLI processes on fixtures.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['packages/*/src/**/*.test.ts'] } },
      {
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/consumer/**', 'test/slow/**'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      // The packed packages installed with npm into temp projects, per Vitest/Vite/Node lane (test/consumer).
      {
        test: {
          name: 'consumer',
          include: ['test/consumer/**/*.test.ts'],
          globalSetup: ['test/consumer/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      // The slow lane (`pnpm test:slow`): a realistic image made by debootstrap, cached between runs.
      ...(process.env.GZ_BENCH_SLOW === '1'
        ? [{ test: { name: 'slow', include: ['test/slow/**/*.test.ts'], testTimeout: 1_800_000 } }]
        : []),
    ],
  },
});
