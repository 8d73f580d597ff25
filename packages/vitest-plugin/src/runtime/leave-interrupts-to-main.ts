import { leaveInterruptToParent } from '@gz-bench/core/run';

/**
 * Keeps a terminal's Ctrl-C from killing this worker outright. A terminal sends SIGINT to its whole
 * foreground process group, the forked workers included, and Node's default is to exit at once: the
 * results of the trials that had finished, which reach the main process only when their cell's test
 * ends, would be lost with the worker. The main process receives the same SIGINT and cancels the run
 * (the gz-bench CLI), so every cell ends its trials and reports what finished; when the main process
 * exits instead (plain `vitest`), this worker's guardian ends it and its cases (die-with-main.ts).
 */
export function leaveInterruptsToMain(): void {
  // Only a forked worker is a process of its own; a thread worker shares the main process's signals.
  if (process.send === undefined) return;
  leaveInterruptToParent();
}
