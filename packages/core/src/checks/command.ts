import type { ProcessResult } from '../process/types.js';
import { failureSummary } from './failure-lines.js';
import { formatSeconds, tailText } from './messages.js';
import type { CheckDefinition, CheckDetails, CheckOutcome, CommandReward } from './types.js';

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
    // Nothing ran to say anything: the command line is what to look at.
    if (result.spawnError !== undefined) {
      return { passed: false, message: `command could not start: ${check.run} (${result.spawnError})`, details };
    }
    if (result.aborted) return { passed: false, message: `command was aborted: ${check.run}`, details };
    // A task's verifier says its verdict in a reward file: its test script's exit code is often 0 either way.
    if (result.reward !== undefined && !result.timedOut) return rewardOutcome(result.reward, result, details);
    const failure = failureMessage(result, expectedExit, context.commandTimeoutMs);
    if (failure === undefined) return { passed: true, details };
    // The check's own words say what failed; the command line is in the result's `run` already.
    const said = failureSummary(result.output.text);
    const message = said === undefined ? `${failure} (no output): ${check.run}` : `${failure}: ${said}`;
    const outcome: CheckOutcome = { passed: false, message };
    return { ...outcome, details };
  },
};

function rewardOutcome(reward: CommandReward, result: ProcessResult, details: CheckDetails): CheckOutcome {
  if ('problem' in reward)
    return { passed: false, message: `${reward.file} is not a reward: ${reward.problem}`, details };
  const withReward = { ...details, reward: reward.value };
  if (reward.passed) return { passed: true, details: withReward };
  const said = failureSummary(result.output.text);
  const value = JSON.stringify(reward.value);
  const message = `reward ${value} in ${reward.file}${said === undefined ? '' : `: ${said}`}`;
  return { passed: false, message, details: withReward };
}

/** How the command ended, when not as expected: `command exited with 1, expected 0`. */
function failureMessage(result: ProcessResult, expectedExit: number, timeoutMs?: number): string | undefined {
  // Most specific cause first: a timed-out command was also killed by a signal.
  if (result.timedOut)
    return timeoutMs === undefined ? 'command timed out' : `command timed out after ${formatSeconds(timeoutMs)}`;
  if (result.exitCode === null) {
    return result.signal === null ? 'command ended without an exit code' : `command was killed by ${result.signal}`;
  }
  if (result.exitCode !== expectedExit) return `command exited with ${result.exitCode}, expected ${expectedExit}`;
  return undefined;
}
