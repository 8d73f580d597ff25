import { appendFile } from 'node:fs/promises';

/**
 * Appends markdown (`what`, e.g. `the scoreboard`) to the GitHub Actions job summary when `$GITHUB_STEP_SUMMARY` names one. A summary
 * that cannot be written is worth a warning, never a failed run: the result stands without it.
 */
export async function appendStepSummary(
  markdown: string,
  what: string,
  warn: (message: string) => void,
): Promise<void> {
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (!summary) return;
  await appendFile(summary, `${markdown}\n`).catch((error: NodeJS.ErrnoException) => {
    warn(`gz-bench: could not append ${what} to GITHUB_STEP_SUMMARY (${error.code ?? error.message})`);
  });
}
