import { removeTreeSync } from '../workspace/remove-tree.js';
import { guard, releaseGuarded } from './guardian.js';
import type { GuardedItem } from './guardian-protocol.js';
import { signalProcessGroup } from './kill-tree.js';
import { killByTokenSync } from './sweep.js';

// What cases have running or on disk in this process. If the harness process ends while they run
// (Ctrl-C, SIGTERM from a pool shutting a worker down, process.exit), the process groups are killed
// and the workspaces removed on the way out: agents run in groups of their own, so no terminal or
// parent signal reaches them otherwise, and no `finally` runs in a process that a signal ends.
// Everything tracked here is also told to this process's guardian (guardian.ts), which does the same
// should the process die without running any handler (SIGKILL).
const liveGroups = new Set<number>();
const liveWorkspaces = new Set<string>();
const liveTokens = new Set<string>();
const EXIT_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;
/** Set in a process whose parent answers a terminal's Ctrl-C (see `leaveInterruptToParent`). */
let interruptToParent = false;

/**
 * For a child process that a terminal's Ctrl-C reaches beside its parent (a terminal signals its
 * whole foreground process group), where the parent answers it by cancelling what this process runs:
 * SIGINT then neither ends this process nor kills its cases, which end as cancelled, with their
 * results. Should the parent exit instead, this process's guardian ends it and its cases.
 */
export function leaveInterruptToParent(): void {
  if (interruptToParent) return;
  interruptToParent = true;
  process.on('SIGINT', () => {});
}

/** Records a running process group until the returned function is called. */
export function trackProcessGroup(groupId: number): () => void {
  return track(liveGroups, groupId, (value) => ({ kind: 'group', value }));
}

/**
 * Records a case's directory (or any directory of the harness's) to remove, and its token to sweep
 * (processes that left their group), should the process end before the returned function is called.
 */
export function trackWorkspace(dir: string, token?: string): () => void {
  const untrackDir = track(liveWorkspaces, dir, (value) => ({ kind: 'dir', value }));
  const untrackToken =
    token === undefined ? undefined : track(liveTokens, token, (value) => ({ kind: 'token', value }));
  return () => {
    untrackDir();
    untrackToken?.();
  };
}

function track<T>(set: Set<T>, item: T, guarded: (item: T) => GuardedItem): () => void {
  if (!installed) installHandlers();
  set.add(item);
  guard(guarded(item));
  return () => {
    if (set.delete(item)) releaseGuarded(guarded(item));
  };
}

function cleanUp(): void {
  for (const groupId of liveGroups) signalProcessGroup(groupId, 'SIGKILL');
  liveGroups.clear();
  // One pass over /proc for all of them.
  if (liveTokens.size > 0) killByTokenSync([...liveTokens], { timeoutMs: 1000 });
  liveTokens.clear();
  for (const dir of liveWorkspaces) {
    try {
      removeTreeSync(dir);
    } catch {
      // The process is on its way out; the guardian, then the next run, try again.
    }
  }
  liveWorkspaces.clear();
}

function installHandlers(): void {
  installed = true;
  process.on('exit', cleanUp);
  for (const signal of EXIT_SIGNALS) {
    const onSignal = () => {
      if (signal === 'SIGINT' && interruptToParent) return;
      cleanUp();
      process.off(signal, onSignal);
      // Without listeners of its own, the process would have died of this signal: let it, as before.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** How many process groups, tokens and directories are tracked now: none once every case is done. */
export function trackedForExitCount(): number {
  return liveGroups.size + liveTokens.size + liveWorkspaces.size;
}
