/** Quotes a string as one word for the POSIX shell. */
export function sh(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A shell command line that runs a node script with `args`, each passed as one word. */
export function nodeCommand(script: string, ...args: string[]): string {
  return ['node', sh(script), ...args.map(sh)].join(' ');
}
