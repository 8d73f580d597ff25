import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { processGroupIsRunning, signalProcessGroup, waitForProcessGroupExit } from './kill-tree.js';

const started: ChildProcess[] = [];

/** A shell leading its own process group, with one more sleeper in that group. */
function startGroup(script = 'sleep 30 & sleep 30', stdout: 'ignore' | 'pipe' = 'ignore'): number {
  const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: ['ignore', stdout, 'ignore'] });
  started.push(child);
  return child.pid as number;
}

afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid !== undefined) signalProcessGroup(child.pid, 'SIGKILL');
  }
});

describe('kill-tree', () => {
  it('signals every member of a group and sees it end', async () => {
    const groupId = startGroup();
    expect(await processGroupIsRunning(groupId)).toBe(true);
    expect(signalProcessGroup(groupId, 'SIGTERM')).toBe(true);
    expect(await waitForProcessGroupExit(groupId, Date.now() + 2000)).toBe(true);
    expect(await processGroupIsRunning(groupId)).toBe(false);
  });

  it('reports a group that no longer exists without throwing', async () => {
    const groupId = startGroup('exit 0');
    await once(started.at(-1) as ChildProcess, 'exit');
    expect(signalProcessGroup(groupId, 'SIGKILL')).toBe(false);
    expect(await processGroupIsRunning(groupId)).toBe(false);
  });

  it('stops waiting at the deadline while the group still runs', async () => {
    const groupId = startGroup('trap "" TERM; echo ready; sleep 30', 'pipe');
    // Signal only once the trap is set, or SIGTERM would simply end the shell.
    await once((started.at(-1) as ChildProcess).stdout as NodeJS.ReadableStream, 'data');
    signalProcessGroup(groupId, 'SIGTERM');
    const waitStarted = Date.now();
    expect(await waitForProcessGroupExit(groupId, Date.now() + 200)).toBe(false);
    expect(Date.now() - waitStarted).toBeGreaterThanOrEqual(190);
  });
});
