import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { releasePrefork, startPrefork, takePrefork } from './prefork.js';
import type { WorkerLaunch } from './worker-launch.js';

// Real processes: a stand-in for Vitest's fork worker that echoes its IPC messages, found by a marker
// in its environment.

function launchWith(marker: string): WorkerLaunch {
  return {
    entrypoint: fileURLToPath(new URL('./test-support/echo-worker.mjs', import.meta.url)),
    execArgv: [],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PREFORK_TEST: marker },
    cwd: process.cwd(),
  };
}

/** Pids of running processes whose environment has PREFORK_TEST=marker, after they had up to 5 s to end. */
async function runningWith(marker: string): Promise<number[]> {
  const wanted = `PREFORK_TEST=${marker}`;
  const deadline = Date.now() + 5000;
  for (;;) {
    const found: number[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      const zombie = / [ZX] /.test(stat.slice(stat.lastIndexOf(')')));
      if (!zombie && environ.split('\0').includes(wanted)) found.push(Number(entry));
    }
    if (found.length === 0 || Date.now() > deadline) return found;
    await delay(50);
  }
}

afterEach(() => releasePrefork());

describe.runIf(process.platform === 'linux')('a worker started ahead', () => {
  it('is taken by the same launch, once, and answers over its IPC channel', async () => {
    const launch = launchWith(randomUUID());
    startPrefork(launch);
    const child = takePrefork({ ...launch, env: { ...launch.env } });
    if (child === undefined) throw new Error('the worker started ahead was not taken');
    expect(takePrefork(launch)).toBeUndefined();
    child.send('ping');
    const [reply] = (await once(child, 'message')) as [unknown];
    expect(reply).toEqual({ echo: 'ping' });
    child.kill();
    await once(child, 'exit');
  });

  it('ends when the launch asked for differs in one variable', async () => {
    const marker = randomUUID();
    const launch = launchWith(marker);
    startPrefork(launch);
    expect(takePrefork({ ...launch, env: { ...launch.env, OTHER: '1' } })).toBeUndefined();
    expect(await runningWith(marker)).toEqual([]);
  });

  it('ends when released untaken, and when another replaces it', async () => {
    const first = randomUUID();
    const second = randomUUID();
    startPrefork(launchWith(first));
    startPrefork(launchWith(second));
    expect(await runningWith(first)).toEqual([]);
    releasePrefork();
    expect(await runningWith(second)).toEqual([]);
    expect(takePrefork(launchWith(second))).toBeUndefined();
  });
});
