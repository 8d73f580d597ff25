import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOwnedDir, removeTree } from '@gz-bench/core';
import type { Vitest } from 'vitest/node';
import type { SlotAddress } from '../shared/options.js';
import { EnvironmentError } from './environment-error.js';
import type { SlotLimits } from './slot-queue.js';
import { type SlotServer, startSlotServer } from './slot-server.js';

// Where a run's slot server listens. On Linux, a socket in the abstract namespace: it has no file,
// so nothing is left behind however the run ends (SIGKILL included), and nothing an agent does to the
// temp dir can take it away. Elsewhere, a socket file in a directory of the run's own under the temp
// dir (mode 0700, named after this process, so that the next run's janitor removes it should this
// process be killed outright), or a named pipe on Windows. Either way only requests with the run's
// token are served.

// A Unix socket's path must fit in sockaddr_un.sun_path: 108 bytes on Linux, 104 on macOS and the BSDs.
const MAX_SOCKET_PATH_BYTES = 103;

/** A slot server and the way to stop it and remove what it made. */
export interface OpenedSlots {
  server: SlotServer;
  address: SlotAddress;
  close(): Promise<void>;
}

const slotsOfRun = new WeakMap<Vitest, { limits: SlotLimits; opened: Promise<OpenedSlots> }>();

/**
 * The slot server of this Vitest run, started on first use and stopped when Vitest closes: one limit
 * for every project, suite file and worker of the run. Resolves to what the workers need to reach it.
 */
export async function runSlots(vitest: Vitest, limits: SlotLimits): Promise<SlotAddress> {
  let started = slotsOfRun.get(vitest);
  if (!started) {
    const opened = openSlots(limits);
    started = { limits, opened };
    slotsOfRun.set(vitest, started);
    vitest.onClose(async () => (await opened.catch(() => undefined))?.close());
  } else if (started.limits.total !== limits.total) {
    vitest.logger.warn(
      `gz-bench: projects of this run set concurrency ${started.limits.total} and ${limits.total}; the run keeps one limit, ${started.limits.total}`,
    );
  }
  return (await started.opened).address;
}

/**
 * Cancels the run's slots (the gz-bench CLI, on Ctrl-C): every running trial stops and every queued
 * one does not run. Vitest's own abort of running tests does not suffice: 4.1 loses track of the
 * concurrent tests of a file still running once an earlier one ends, and their trials would run on.
 */
export async function cancelRunSlots(vitest: Vitest): Promise<void> {
  const opened = await slotsOfRun.get(vitest)?.opened.catch(() => undefined);
  opened?.server.cancel();
}

/** Opens a slot server where this platform serves it best (see the top of this file). */
export function openSlots(limits: SlotLimits): Promise<OpenedSlots> {
  if (process.platform === 'linux') return openAbstractSlots(limits);
  if (process.platform === 'win32') {
    return openSlotsAt(`\\\\.\\pipe\\gz-bench-slots-${process.pid}-${randomBytes(6).toString('hex')}`, limits);
  }
  return openSlotsInOwnedDir(limits);
}

/** A slot server on a Linux abstract socket, named after this process. */
export function openAbstractSlots(limits: SlotLimits): Promise<OpenedSlots> {
  return openSlotsAt(`\0gz-bench-slots-${process.pid}-${randomBytes(6).toString('hex')}`, limits);
}

/** A slot server on a socket file in an owned directory under `parent` (the temp dir by default). */
export async function openSlotsInOwnedDir(limits: SlotLimits, parent: string = tmpdir()): Promise<OpenedSlots> {
  const dir = await createOwnedDir(parent, 'slots');
  // On process.exit (a second Ctrl-C) no close hook runs; the directory goes all the same.
  const removeAtExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeAtExit);
  const removeDir = async () => {
    process.off('exit', removeAtExit);
    await removeTree(dir).catch(() => {});
  };
  const path = join(dir, 'slots.sock');
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    await removeDir();
    throw new EnvironmentError(
      `gz-bench: the temp directory ${parent} (TMPDIR) has too long a path for the run's socket (${Buffer.byteLength(path)} bytes with its name, at most ${MAX_SOCKET_PATH_BYTES}); point TMPDIR at a shorter path`,
    );
  }
  try {
    const opened = await openSlotsAt(path, limits);
    return {
      ...opened,
      async close() {
        await opened.close();
        await removeDir();
      },
    };
  } catch (error) {
    await removeDir();
    throw error;
  }
}

async function openSlotsAt(path: string, limits: SlotLimits): Promise<OpenedSlots> {
  const token = randomBytes(16).toString('hex');
  let server: SlotServer;
  try {
    server = await startSlotServer(path, limits, { token });
  } catch (error) {
    // An abstract socket's name starts with NUL, which would cut the line short: shown as `@`, as ss(8) does.
    const reason = (error as Error).message.replaceAll('\0', '@');
    throw new EnvironmentError(`gz-bench: cannot open the run's slot socket: ${reason}`);
  }
  return { server, address: { path, token }, close: () => server.close() };
}
