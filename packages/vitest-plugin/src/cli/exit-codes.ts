/** Exit codes of the CLI, as the README documents them. */
export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;
