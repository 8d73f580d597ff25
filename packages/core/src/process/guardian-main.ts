import { createInterface } from 'node:readline';
import { removeTree } from '../workspace/remove-tree.js';
import { decodeMessage, type GuardedItem } from './guardian-protocol.js';
import { signalProcessGroup } from './kill-tree.js';
import { isRunningState, readProcessStat } from './proc-stat.js';
import { killByToken } from './sweep.js';

// The guardian of one harness process (see guardian.ts): its parent. It learns on stdin what the
// parent's cases have running and on disk, and when the parent dies by any means (its end of the
// pipe closes; SIGKILL included), it kills those process groups and token carriers and removes those
// directories. Told to watch another process (a Vitest worker watches the main process), it also
// kills its parent when that one dies. Then it exits: it never outlives what it guards by more than
// the cleanup.

const WATCH_POLL_MS = 200;
const SWEEP_TIMEOUT_MS = 2000;

interface Identity {
  pid: number;
  /** Undefined where /proc cannot tell. */
  startTime: number | undefined;
}

const groups = new Set<number>();
const tokens = new Set<string>();
const dirs = new Set<string>();
const watched: Identity[] = [];
let finishing = false;

const guarded = await identify(process.ppid);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = decodeMessage(line);
  if (message === undefined || finishing) return;
  if (message.op === 'watch') void identify(message.pid).then((identity) => watched.push(identity));
  else update(message, message.op === 'add');
});
// EOF: the guarded process closed its end, which only its death (or exit) does.
lines.on('close', () => void finish(false));
process.stdin.on('error', () => void finish(false));

const poll = setInterval(() => {
  void (async () => {
    for (const identity of watched) if (!(await isAlive(identity))) return finish(true);
  })();
}, WATCH_POLL_MS);

async function finish(killGuarded: boolean): Promise<void> {
  if (finishing) return;
  finishing = true;
  clearInterval(poll);
  // Its workers are useless once the main process is gone, and would run their agents to the timeout.
  if (killGuarded && guarded.pid > 1 && (await isAlive(guarded))) {
    try {
      process.kill(guarded.pid, 'SIGKILL');
    } catch {}
  }
  for (const group of groups) signalProcessGroup(group, 'SIGKILL');
  await Promise.all([...tokens].map((token) => killByToken(token, { timeoutMs: SWEEP_TIMEOUT_MS })));
  for (const dir of dirs) await removeTree(dir).catch(() => {});
  process.exit(0);
}

function update(item: GuardedItem, add: boolean): void {
  if (item.kind === 'group') change(groups, item.value, add);
  else change(item.kind === 'token' ? tokens : dirs, item.value, add);
}

function change<T>(set: Set<T>, value: T, add: boolean): void {
  if (add) set.add(value);
  else set.delete(value);
}

async function identify(pid: number): Promise<Identity> {
  return { pid, startTime: (await readProcessStat(pid))?.startTime };
}

async function isAlive(identity: Identity): Promise<boolean> {
  if (identity.startTime !== undefined) {
    const stat = await readProcessStat(identity.pid);
    return isRunningState(stat) && stat?.startTime === identity.startTime;
  }
  try {
    process.kill(identity.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
