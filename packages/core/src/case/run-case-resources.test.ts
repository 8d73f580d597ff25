import { getEventListeners } from 'node:events';
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caseLogLocation } from '../logs/log-paths.js';
import { trackedForExitCount } from '../process/exit-cleanup.js';
import type { Case } from '../suite/schema.js';
import { runCase } from './run-case.js';

// What a case holds must go with it: a harness that runs thousands of cases in one process may not
// keep anything per case in its listeners, timers or tracking sets.

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-resources-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const trivial = (index: number): Case => ({
  id: `case-${index}`,
  prompt: 'write out.txt',
  setup: ['true'],
  checks: [
    { kind: 'fileExists', path: 'out.txt' },
    { kind: 'fileContains', path: 'out.txt', text: 'done' },
    { kind: 'command', run: 'test -s out.txt' },
    { kind: 'outputMatches', pattern: '^done$', flags: 'm' },
  ],
});

/** Timers, pipes, child processes and the like that keep the event loop alive, by kind. */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** The kinds of resource of which there are more than `baseline` has, once given a moment to settle. */
async function resourcesSettledTo(baseline: Record<string, number>): Promise<Record<string, number>> {
  let grown: Record<string, number> = {};
  for (let attempt = 0; attempt < 40; attempt++) {
    const now = activeResources();
    grown = Object.fromEntries(Object.entries(now).filter(([kind, count]) => count > (baseline[kind] ?? 0)));
    if (Object.keys(grown).length === 0) return grown;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return grown;
}

describe('runCase: nothing per case outlives it', () => {
  it('leaves no listener, timer, tracked process or directory behind, however many cases ran', async () => {
    const controller = new AbortController();
    const run = (index: number) =>
      runCase(trivial(index), {
        cmd: 'echo done > out.txt; echo done',
        tmpDir: root,
        signal: controller.signal,
        logs: caseLogLocation({ logsDir: join(root, 'logs'), root, suiteFile: 's.json', caseId: `case-${index}` }),
      });
    // The first case installs what lives as long as the process (exit handlers, an idle regex worker).
    expect((await run(0)).passed).toBe(true);
    const exitListeners = process.listenerCount('exit');
    const sigintListeners = process.listenerCount('SIGINT');
    const resources = activeResources();

    for (let index = 1; index <= 25; index += 1) expect((await run(index)).passed).toBe(true);

    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(trackedForExitCount()).toBe(0);
    expect(process.listenerCount('exit')).toBe(exitListeners);
    expect(process.listenerCount('SIGINT')).toBe(sigintListeners);
    // Something of the last case may still be on its way out (a pipe closing, an idle timer): none
    // of it may stay, and no kind of resource may grow with the number of cases.
    expect(await resourcesSettledTo(resources)).toEqual({});
    // Every area went; only the logs stay, one directory per case.
    expect((await readdir(root)).sort()).toEqual(['logs']);
    expect(await readdir(join(root, 'logs', 's.json'))).toHaveLength(26);
  }, 60_000);
});
