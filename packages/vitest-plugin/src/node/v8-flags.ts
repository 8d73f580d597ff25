/**
 * The arguments that may carry a Node or V8 flag the user gave a process: its `execArgv` and
 * NODE_OPTIONS, with underscores as dashes (V8 takes either).
 */
export function givenFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((arg) => arg.replaceAll('_', '-'));
}

/** Whether `given` (from givenFlags) sets `flag`, with or without a value, or turns it off (`--no-…`). */
export function choseFlag(given: readonly string[], flag: string): boolean {
  const off = `--no-${flag.slice(2)}`;
  return given.some((arg) => arg === flag || arg.startsWith(`${flag}=`) || arg === off);
}
