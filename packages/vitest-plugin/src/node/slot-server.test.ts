import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireSlot, type Slot, SlotError } from '../runtime/slot-client.js';
import { type SlotServer, startSlotServer } from './slot-server.js';

// The run's slots over a real Unix socket, with clients in this process and in child processes
// that are killed, as a worker dies, while they wait or hold a slot.

let dir: string;
let server: SlotServer | undefined;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-slot-test-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function start(limits: Parameters<typeof startSlotServer>[1]): Promise<SlotServer> {
  server = await startSlotServer(join(dir, 's.sock'), limits);
  return server;
}

/** Resolves once `predicate` holds, polling; fails the test after `ms`. */
async function until(predicate: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Which of `pending` have settled by now (after the pending I/O of this turn). */
async function settled<T>(pending: Array<Promise<T>>): Promise<boolean[]> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  const states = pending.map((promise) => {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    return () => done;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return states.map((done) => done());
}

/** A child process that asks for a slot and prints "granted" once it has it, then holds it. */
function childClient(path: string): { child: ChildProcess; granted: Promise<void> } {
  const script = `
    const socket = require('node:net').connect(${JSON.stringify(path)}, () => socket.write('{}\\n'));
    socket.on('data', (data) => process.stdout.write(String(data)));
    setInterval(() => {}, 1 << 30);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const granted = new Promise<void>((resolve) => {
    child.stdout?.on('data', (data) => {
      if (String(data).includes('granted')) resolve();
    });
  });
  return { child, granted };
}

describe('slot server', () => {
  it('hands out at most the run limit, and each released slot to the next in line', async () => {
    const slots = await start({ total: 2 });
    const order: number[] = [];
    const requests = [0, 1, 2, 3, 4].map(async (n) => {
      const slot = await acquireSlot(slots.path);
      order.push(n);
      return slot;
    });
    await until(() => slots.held === 2 && slots.waiting === 3);
    expect(await settled(requests)).toEqual([true, true, false, false, false]);
    (await requests[0])?.release();
    await until(() => order.length === 3);
    expect(await settled(requests)).toEqual([true, true, true, false, false]);
    (await requests[1])?.release();
    (await requests[2])?.release();
    await until(() => order.length === 5);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    for (const request of requests) (await request).release();
    await until(() => slots.held === 0);
  });

  it('bounds the requests of a pool key by its own limit; others go past them', async () => {
    const slots = await start({ total: 3, keys: { provider: 1 } });
    const first = await acquireSlot(slots.path, { keys: ['provider'] });
    const second = acquireSlot(slots.path, { keys: ['provider'] });
    await until(() => slots.waiting === 1);
    const unkeyed = await acquireSlot(slots.path);
    expect(await settled([second])).toEqual([false]);
    first.release();
    (await second).release();
    unkeyed.release();
    await until(() => slots.held === 0 && slots.waiting === 0);
  });

  it('frees the slot of a client process killed while it holds it', async () => {
    const slots = await start({ total: 1 });
    const holder = childClient(slots.path);
    await holder.granted;
    const waiting = acquireSlot(slots.path);
    expect(await settled([waiting])).toEqual([false]);
    holder.child.kill('SIGKILL');
    const slot = await waiting;
    expect(slots.held).toBe(1);
    slot.release();
  });

  it('forgets a client process killed while it waits: the slot goes to the one after it', async () => {
    const slots = await start({ total: 1 });
    const holding = await acquireSlot(slots.path);
    const dying = childClient(slots.path);
    await until(() => slots.waiting === 1);
    const after = acquireSlot(slots.path);
    await until(() => slots.waiting === 2);
    dying.child.kill('SIGKILL');
    await once(dying.child, 'exit');
    await until(() => slots.waiting === 1);
    holding.release();
    const slot = await after;
    expect([slots.held, slots.waiting]).toEqual([1, 0]);
    slot.release();
  });

  it('gives up waiting when the signal aborts, holding nothing', async () => {
    const slots = await start({ total: 1 });
    const holding = await acquireSlot(slots.path);
    const controller = new AbortController();
    const waiting = acquireSlot(slots.path, { signal: controller.signal });
    await until(() => slots.waiting === 1);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    await until(() => slots.waiting === 0);
    holding.release();
    await until(() => slots.held === 0);
    await expect(acquireSlot(slots.path, { signal: AbortSignal.abort(new Error('early')) })).rejects.toThrow('early');
  });

  it('fails the waiting clients when it closes; holders keep going, and release is harmless', async () => {
    const slots = await start({ total: 1 });
    const holding: Slot = await acquireSlot(slots.path);
    const waiting = acquireSlot(slots.path);
    await until(() => slots.waiting === 1);
    await slots.close();
    server = undefined;
    await expect(waiting).rejects.toThrow(new SlotError('gz-bench: the run ended while the case waited for a slot'));
    holding.release();
    holding.release();
    await expect(acquireSlot(join(dir, 's.sock'))).rejects.toThrow(/cannot reach the run's slot server at .*s\.sock/);
  });

  it('with a token, serves only the requests that carry it', async () => {
    const slots = await startSlotServer(join(dir, 's.sock'), { total: 1 }, { token: 'the-token' });
    server = slots;
    await expect(acquireSlot(slots.path)).rejects.toThrow(
      new SlotError("gz-bench: the run's slot server refused a slot: wrong token"),
    );
    await expect(acquireSlot(slots.path, { token: 'the-tokem' })).rejects.toThrow('wrong token');
    expect([slots.held, slots.waiting]).toEqual([0, 0]);
    const slot = await acquireSlot(slots.path, { token: 'the-token' });
    expect(slots.held).toBe(1);
    slot.release();
  });

  it('a burst of requests beyond the backlog is asked again, not failed', async () => {
    // A backlog of 4 and 200 connections at once from this process, whose loop accepts none of
    // them until it is free: most connects are refused with EAGAIN at first.
    server = await startSlotServer(join(dir, 's.sock'), { total: 200 }, { backlog: 4 });
    const slots = await Promise.all(Array.from({ length: 200 }, () => acquireSlot(join(dir, 's.sock'))));
    expect(server.held).toBe(200);
    for (const slot of slots) slot.release();
  });

  it('refuses a request that is not one, and still serves the others', async () => {
    const slots = await start({ total: 1 });
    const reply = async (line: string) => {
      const socket = connect(slots.path);
      socket.write(line);
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      await once(socket, 'close');
      return text;
    };
    expect(await reply('not json\n')).toBe('refused the request is not JSON\n');
    expect(await reply('{"keys":[""]}\n')).toBe('refused "keys" must be a list of non-empty strings\n');
    expect(await reply('{"slot":1}\n')).toBe('refused unknown field "slot"\n');
    expect(await reply('x'.repeat(5000))).toBe('refused the request is too long\n');
    expect([slots.held, slots.waiting]).toEqual([0, 0]);
    (await acquireSlot(slots.path)).release();
  });
});
