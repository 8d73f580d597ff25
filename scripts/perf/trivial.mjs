// The trivial case of the overhead and memory rows: the command writes a file, four checks score it.
// The plain loop (plain-loop.mjs) does exactly this work.

/** The agent command: writes a file and says so. */
export const TRIVIAL_CMD = "printf 'hello\\n' > out.txt && echo done";
export const TRIVIAL_FILE = 'out.txt';
export const TRIVIAL_TEXT = 'hello';
export const TRIVIAL_COMMAND_CHECK = 'test -s out.txt';
export const TRIVIAL_OUTPUT = '\\bdone\\b';

/** One trivial case of a suite file. */
export function trivialCase(id) {
  return {
    id,
    prompt: 'Write out.txt',
    checks: [
      { kind: 'fileExists', path: TRIVIAL_FILE },
      { kind: 'fileContains', path: TRIVIAL_FILE, text: TRIVIAL_TEXT },
      { kind: 'command', run: TRIVIAL_COMMAND_CHECK },
      { kind: 'outputMatches', pattern: TRIVIAL_OUTPUT },
    ],
  };
}
