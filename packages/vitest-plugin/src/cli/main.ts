import { BaselineError, markStage, SandboxError, SuiteError, TempDirError, TemplateError } from '@gz-bench/core';
import { EnvironmentError } from '../node/environment-error.js';
import { packageVersion } from '../node/package-version.js';
import { EXIT } from './exit-codes.js';
import { initCommand } from './init-command.js';
import { writeOut } from './stdout.js';
import { USAGE } from './usage.js';
import { UsageError } from './usage-error.js';
import { validateCommand } from './validate-command.js';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  // Loaded on demand: it imports Vitest, which `--version` and `validate` do not need.
  run: async (args) => (await import('./run-command.js')).runCommand(args),
  compare: async (args) => (await import('./compare-command.js')).compareCommand(args),
  view: async (args) => (await import('./view-command.js')).viewCommand(args),
  'check-suite': async (args) => (await import('./check-suite-command.js')).checkSuiteCommand(args),
  validate: validateCommand,
  import: async (args) => (await import('./import-command.js')).importCommand(args),
  init: initCommand,
  doctor: async (args) => (await import('./doctor-command.js')).doctorCommand(args),
};

/** Runs the gz-bench CLI and resolves to its exit code. Users see messages, never stack traces, for their own mistakes. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  markStage('the CLI is loaded');
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      if (command === undefined) {
        process.stderr.write(USAGE);
        return EXIT.usage;
      }
      await writeOut(USAGE);
      return EXIT.passed;
    }
    if (command === '--version' || command === '-v') {
      if (rest.length > 0) throw new UsageError(`${command} takes no arguments`);
      await writeOut(`${packageVersion()}\n`);
      return EXIT.passed;
    }
    const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!handler) throw new UsageError(`unknown command "${command}"`);
    if (rest.includes('--help') || rest.includes('-h')) {
      await writeOut(USAGE);
      return EXIT.passed;
    }
    return await handler(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`gz-bench: ${error.message}\nRun "gz-bench --help" for usage.\n`);
      return EXIT.usage;
    }
    if (error instanceof SuiteError || error instanceof TemplateError || error instanceof BaselineError) {
      process.stderr.write(`gz-bench: ${error.message}\n`);
      return EXIT.usage;
    }
    // Faults of the machine (temp dir gone, read-only or full; a bwrap sandbox that cannot work here): the run failed, and one line says why.
    if (error instanceof TempDirError || error instanceof SandboxError) {
      process.stderr.write(`gz-bench: ${error.message}\n`);
      return EXIT.failed;
    }
    if (error instanceof EnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.failed;
    }
    if (isSystemError(error)) {
      process.stderr.write(`gz-bench: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}

/** An error of a system call (`ENOSPC: no space left on device, mkdtemp '…'`): it names what failed where. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return error instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof syscall === 'string';
}
