import { signalProcessGroup } from './kill-tree.js';

// Process groups of commands still running in this process. If the harness process ends while they
// run (Ctrl-C, SIGTERM from a pool shutting a worker down, process.exit), they are killed on the way
// out: agents run in groups of their own, so no terminal or parent signal reaches them otherwise.
const liveGroups = new Set<number>();
const EXIT_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;

/** Records a running process group until the returned function is called. */
export function trackProcessGroup(groupId: number): () => void {
  if (!installed) installHandlers();
  liveGroups.add(groupId);
  return () => {
    liveGroups.delete(groupId);
  };
}

/** The process groups currently tracked (for tests). */
export function trackedProcessGroups(): ReadonlySet<number> {
  return liveGroups;
}

function killLiveGroups(): void {
  for (const groupId of liveGroups) signalProcessGroup(groupId, 'SIGKILL');
  liveGroups.clear();
}

function installHandlers(): void {
  installed = true;
  process.on('exit', killLiveGroups);
  for (const signal of EXIT_SIGNALS) {
    const onSignal = () => {
      killLiveGroups();
      process.off(signal, onSignal);
      // Without listeners of its own, the process would have died of this signal: let it, as before.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
