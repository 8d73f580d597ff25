// The oracle of a case is its `solution`: shell commands that solve it. Run as the agent (in the
// workspace, with the agent's environment, in the same sandbox), they prove that the checks can pass;
// a no-op agent proves that they can fail.

/** The agent that solves nothing, against which every case's checks must fail. */
export const NO_OP_COMMAND = 'true';

/**
 * One shell command line that runs a case's solution lines in order, in one shell (a `cd` carries
 * over, as in a script), and stops at the first that fails, with its exit code. Each line is grouped
 * on lines of its own, so a trailing comment, a background `&` or a here-document stays within it.
 * No template placeholders: solution lines are run as written.
 */
export function solutionCommand(lines: readonly string[]): string {
  if (lines.length === 0) return NO_OP_COMMAND;
  return lines.map((line) => `{\n${line}\n} || exit $?`).join('\n');
}
