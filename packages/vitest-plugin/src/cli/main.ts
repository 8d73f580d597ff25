/** Runs the gz-bench CLI and resolves to its exit code. */
export async function main(_argv: string[]): Promise<number> {
  return 2;
}
