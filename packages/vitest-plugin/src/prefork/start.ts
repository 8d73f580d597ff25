import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { isatty } from 'node:tty';
import { startPrefork } from './prefork.js';
import { predictWorkerLaunch } from './worker-launch.js';

// What the CLI's bin loads first: it starts the run's first Vitest worker (prefork.ts) before the CLI
// loads Vitest. Only this and Node's own modules load here.

/** Commands that run Vitest. */
const VITEST_COMMANDS = new Set(['run']);

/**
 * Starts the first worker of the run that `args` asks for, if it runs Vitest. `env` is the environment
 * as the user gave it, which the bin may have changed for the CLI's own process. Never throws: a run
 * without a worker started ahead starts its own.
 */
export function preforkWorker(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const [command, ...rest] = args;
  if (command === undefined || !VITEST_COMMANDS.has(command)) return;
  if (rest.includes('--help') || rest.includes('-h')) return;
  try {
    const manifest = createRequire(import.meta.url).resolve('vitest/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    const launch = predictWorkerLaunch({
      vitestDir: dirname(manifest),
      vitestMajor: Number.parseInt(version, 10),
      env,
      execArgv: process.execArgv,
      stdoutIsTty: isatty(1),
      cwd: process.cwd(),
    });
    if (launch !== undefined) startPrefork(launch);
  } catch {
    // Vitest is missing or unreadable: the CLI says so when it loads it.
  }
}
