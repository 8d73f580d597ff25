import { dieWith } from '@gz-bench/core/run';

// In Vitest's forks and vmForks pools, a worker is a child process of the main process that runs on
// when the main process is killed outright, and so would its case's agent, to the case's timeout.
// Its guardian watches the main process and kills the worker and what its cases started when the main
// process is gone, even while the worker's event loop is busy. In the threads pools a worker is a
// thread of the main process: it dies with it, and the guardian of that process cleans up.

let armed = false;

/** Makes this worker die with the Vitest main process; once per worker, before its first case. */
export function dieWithVitestMain(): void {
  if (armed) return;
  armed = true;
  // A child process with an IPC channel: its parent is the main process that forked it.
  if (process.send === undefined || process.ppid <= 1) return;
  dieWith(process.ppid);
}
