import type { ProcessResult } from '../process/types.js';
import { tailText } from './messages.js';
import type { CheckDefinition, CheckOutcome } from './types.js';

/** Characters of a command check's output kept in its result, enough to see why it failed. */
export const COMMAND_OUTPUT_TAIL_CHARS = 2000;

/** `command`: runs `run` in the workspace and passes when it exits with `expectExit` (default 0). */
export const commandCheck: CheckDefinition<'command'> = {
  kind: 'command',
  async evaluate(check, context) {
    const expectedExit = check.expectExit ?? 0;
    const result = await context.runCommand(check.run);
    const details = {
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      outputTail: tailText(result.output.text, COMMAND_OUTPUT_TAIL_CHARS),
    };
    const failure = failureMessage(result, expectedExit, check.run);
    const outcome: CheckOutcome = failure === undefined ? { passed: true } : { passed: false, message: failure };
    return { ...outcome, details };
  },
};

function failureMessage(result: ProcessResult, expectedExit: number, command: string): string | undefined {
  // Most specific cause first: a timed-out command was also killed by a signal.
  if (result.spawnError !== undefined) return `command could not start: ${command} (${result.spawnError})`;
  if (result.timedOut) return `command timed out: ${command}`;
  if (result.aborted) return `command was aborted: ${command}`;
  if (result.exitCode === null) {
    return result.signal === null
      ? `command ended without an exit code: ${command}`
      : `command was killed by ${result.signal}: ${command}`;
  }
  if (result.exitCode !== expectedExit)
    return `command exited with ${result.exitCode}, expected ${expectedExit}: ${command}`;
  return undefined;
}
