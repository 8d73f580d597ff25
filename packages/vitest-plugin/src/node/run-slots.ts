import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOwnedDir, removeTree } from '@gz-bench/core';
import type { Vitest } from 'vitest/node';
import { EnvironmentError } from './environment-error.js';
import { type SlotServer, startSlotServer } from './slot-server.js';

// A Unix socket's path must fit in sockaddr_un.sun_path: 108 bytes on Linux, 104 on macOS and the BSDs.
const MAX_SOCKET_PATH_BYTES = 103;

const slotsOfRun = new WeakMap<Vitest, { concurrency: number; server: Promise<SlotServer> }>();

/**
 * The slot server of this Vitest run, started on first use and stopped when Vitest closes: one
 * limit for every project, suite file and worker of the run. It listens in a directory of its own
 * under the temp dir (mode 0700, named after this process, so that the next run's janitor removes it
 * should this process be killed outright). Resolves to the path the workers connect to.
 */
export async function runSlots(vitest: Vitest, concurrency: number): Promise<string> {
  let started = slotsOfRun.get(vitest);
  if (!started) {
    started = { concurrency, server: startRunSlots(vitest, concurrency) };
    slotsOfRun.set(vitest, started);
  } else if (started.concurrency !== concurrency) {
    vitest.logger.warn(
      `gz-bench: projects of this run set concurrency ${started.concurrency} and ${concurrency}; the run keeps one limit, ${started.concurrency}`,
    );
  }
  return (await started.server).path;
}

async function startRunSlots(vitest: Vitest, concurrency: number): Promise<SlotServer> {
  if (process.platform === 'win32') {
    const server = await startSlotServer(`\\\\.\\pipe\\gz-bench-slots-${process.pid}-${Date.now()}`, {
      total: concurrency,
    });
    vitest.onClose(() => server.close());
    return server;
  }
  const dir = await createOwnedDir(tmpdir(), 'slots');
  const path = join(dir, 'slots.sock');
  // On process.exit (a second Ctrl-C) no close hook runs; the socket dir goes all the same.
  const removeAtExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeAtExit);
  const removeDir = async () => {
    process.off('exit', removeAtExit);
    await removeTree(dir).catch(() => {});
  };
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    await removeDir();
    throw new EnvironmentError(
      `gz-bench: the temp directory ${tmpdir()} (TMPDIR) has too long a path for the run's socket (${Buffer.byteLength(path)} bytes with its name, at most ${MAX_SOCKET_PATH_BYTES}); point TMPDIR at a shorter path`,
    );
  }
  let server: SlotServer;
  try {
    server = await startSlotServer(path, { total: concurrency });
  } catch (error) {
    await removeDir();
    throw new EnvironmentError(
      `gz-bench: cannot open the run's socket in ${dir}: ${(error as Error).message}; check that TMPDIR allows sockets`,
    );
  }
  vitest.onClose(async () => {
    await server.close();
    await removeDir();
  });
  return server;
}
