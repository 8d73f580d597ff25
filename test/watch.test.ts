import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Report } from '@gz-bench/core';
import { execa, type ResultPromise } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { VITEST_BIN } from './support/paths.js';
import { pluginProjectFiles, replyCase, SCRIPTED_CMD } from './support/plugin-project.js';
import { createTempProject, type TempProject } from './support/project.js';
import { readReport } from './support/report.js';
import { cleanEnv } from './support/run.js';

// Vitest's watch mode with the gz-bench plugin: a real `vitest watch` re-runs a suite when its file
// changes, and the reporter's report keeps the latest result of every case, also of suites that did
// not re-run.

const REPORT = 'out/report.json';

let project: TempProject | undefined;
let vitest: ResultPromise | undefined;

afterAll(async () => {
  if (vitest) await stop(vitest);
  await project?.remove();
});

/** Ends the whole process group of a detached child (Vitest, its workers and any agent), SIGKILL after a grace. */
async function stop(child: ResultPromise): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // ESRCH: the group is gone
    }
  };
  signalGroup('SIGTERM');
  for (let waited = 0; waited < 5_000 && signalGroup(0 as unknown as NodeJS.Signals); waited += 100) await sleep(100);
  signalGroup('SIGKILL');
  await child.catch(() => undefined);
  if (signalGroup(0 as unknown as NodeJS.Signals)) throw new Error(`vitest process group ${pid} is still alive`);
}

/** Polls the report until `ready` accepts it; fails with the last report and Vitest's output after `timeoutMs`. */
async function waitForReport(ready: (report: Report) => boolean, output: () => string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last: Report | undefined;
  while (Date.now() < deadline) {
    const dir = project?.dir ?? '';
    if (existsSync(join(dir, REPORT))) {
      try {
        last = await readReport(dir, REPORT);
        if (ready(last)) return last;
      } catch {
        // Caught mid-write: read it again.
      }
    }
    await sleep(100);
  }
  throw new Error(`report not ready after ${timeoutMs}ms: ${JSON.stringify(last)}\n--- vitest output\n${output()}`);
}

const rows = (report: Report) => report.results.map((r) => [r.file, r.id, r.passed]);

describe('vitest watch', () => {
  it('re-runs an edited suite and keeps the latest result of every case', async () => {
    project = await createTempProject({
      ...pluginProjectFiles({ cmd: SCRIPTED_CMD, report: REPORT }),
      'bench/a.bench.json': { name: 'alpha', cases: [replyCase('a-one', 'one')] },
      'bench/b.bench.json': { name: 'beta', cases: [replyCase('b-one', 'bee')] },
    });

    // `vitest` alone watches only when stdin is a TTY; `vitest watch` does with a pipe too. CI must be
    // unset, or Vitest refuses to watch.
    let output = '';
    vitest = execa(process.execPath, [VITEST_BIN, 'watch', 'bench/'], {
      cwd: project.dir,
      env: cleanEnv({ CI: '' }),
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
      detached: true,
      all: true,
      buffer: false,
    });
    vitest.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const seen = () => output;

    const first = await waitForReport((r) => r.summary.total === 2, seen);
    expect(rows(first)).toEqual([
      ['bench/a.bench.json', 'a-one', true],
      ['bench/b.bench.json', 'b-one', true],
    ]);
    const beeBefore = first.results[1];

    // a-one now expects another reply (fails), and a new case is added.
    await project.write('bench/a.bench.json', {
      name: 'alpha',
      cases: [replyCase('a-one', 'one', 'uno'), replyCase('a-two', 'two')],
    });
    const second = await waitForReport((r) => r.results.some((result) => result.id === 'a-two'), seen);
    expect(second.summary).toEqual({ total: 3, passed: 2, failed: 1 });
    expect(rows(second)).toEqual([
      ['bench/a.bench.json', 'a-one', false],
      ['bench/a.bench.json', 'a-two', true],
      ['bench/b.bench.json', 'b-one', true],
    ]);
    expect(second.results[0]).toMatchObject({ error: 'output does not match /^uno$/m', failedStep: 'check' });
    // Only the edited suite ran again: beta's row is the one from the first run.
    expect(output).toMatch(/RERUN\s+bench\/a\.bench\.json/);
    expect(second.results[2]).toEqual(beeBefore);

    // A case removed from the suite leaves the report.
    await project.write('bench/a.bench.json', { name: 'alpha', cases: [replyCase('a-two', 'two')] });
    const third = await waitForReport((r) => !r.results.some((result) => result.id === 'a-one'), seen);
    expect(rows(third)).toEqual([
      ['bench/a.bench.json', 'a-two', true],
      ['bench/b.bench.json', 'b-one', true],
    ]);
    expect(third.summary).toEqual({ total: 2, passed: 2, failed: 0 });

    await stop(vitest);
    vitest = undefined;
  });
});
