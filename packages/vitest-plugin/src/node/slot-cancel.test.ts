import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireSlot, RunCancelledError } from '../runtime/slot-client.js';
import { type SlotServer, startSlotServer } from './slot-server.js';

// A cancelled run (Ctrl-C) through its slots, over a real Unix socket: holders are told to stop,
// waiters that their cases do not run, and nothing is granted after.

let dir: string;
let server: SlotServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-slot-cancel-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('cancelling the run through its slots', () => {
  it('tells every holder to stop, refuses every waiter, and grants nothing after', async () => {
    const path = join(dir, 's.sock');
    server = await startSlotServer(path, { total: 1 });
    let stopped = 0;
    const held = await acquireSlot(path, { onCancel: () => stopped++ });
    const waiting = acquireSlot(path, { onCancel: () => stopped++ });
    const deadline = Date.now() + 5000;
    while (server.waiting === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.waiting).toBe(1);

    server.cancel();
    await expect(waiting).rejects.toBeInstanceOf(RunCancelledError);
    while (stopped === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(1);
    // The holder's slot is free again once it lets go, yet a later request is not granted.
    held.release();
    await expect(acquireSlot(path)).rejects.toThrow(new RunCancelledError());
    expect(server.held).toBe(0);
  });
});
