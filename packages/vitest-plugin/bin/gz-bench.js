#!/usr/bin/env node
// CommonJS, unlike the package (bin/package.json), so that this runs before Node loads any module
// through its ES module loader, which starts libuv's thread pool with its default 4 threads. The
// CLI's process needs few: it waits on Vitest's workers. Each thread that Vite's native parser
// (rolldown) runs on keeps an allocator heap of its own, which grew with the suites' size: 1 thread
// instead of 4 took 24 MiB off a run of 1,000 cases. A size the user set is kept, and the workers and
// agents this process starts get the user's environment as it was.
'use strict';

// GZ_BENCH_DEBUG=timing: the run's times count from this process's start (see core's debug/stage-timing.ts).
if (/(^|,)\s*timing\s*(,|$)/.test(process.env.GZ_BENCH_DEBUG ?? '')) {
  process.env.GZ_BENCH_TIMING_ORIGIN ??= String(performance.timeOrigin);
}
const userPoolSize = process.env.UV_THREADPOOL_SIZE;
if (userPoolSize === undefined) process.env.UV_THREADPOOL_SIZE = '1';

const args = process.argv.slice(2);
const userEnv = { ...process.env };
if (userPoolSize === undefined) delete userEnv.UV_THREADPOOL_SIZE;

// The run's first Vitest worker starts now, while the CLI loads (see src/prefork/prefork.ts).
import('../dist/prefork/start.js')
  .then(({ preforkWorker }) => preforkWorker(args, userEnv))
  .then(() => import('../dist/cli/main.js'))
  .then(async ({ main }) => {
    // The pool has started (loading main.js used it): what it was started with no longer matters.
    if (userPoolSize === undefined) delete process.env.UV_THREADPOOL_SIZE;
    process.exitCode = await main(args);
  });
