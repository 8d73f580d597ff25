import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { it } from 'vitest';
import { expectNothingLeft, intervalAgent, readAgentRuns } from './support/agent-log.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { runCli } from './support/run.js';

// Vitest's test timeout counts from the start of a test, and a case may wait long for a slot of the
// run before it starts: the wait must not count against it. A test of its own, since it mostly waits
// (over a minute), beside the busier ones of test/concurrency.test.ts.

const { project } = cleanupAfterAll();

it('a case that waits for a slot longer than its whole budget still runs and passes', async ({ expect }) => {
  const p = await project();
  const tmp = join(p.dir, 'tmp');
  await mkdir(tmp);
  const log = join(p.dir, 'agents.log');
  // Budget of `waiter`: its one command's timeout (1 s), kill grace and margin (3 s), and 60 s for
  // preparing the workspace: 64 s, which Vitest's own timeout would count from the start of its
  // wait. It waits for the run's one slot while `holder`, whose agent sleeps 66 s, has it.
  await p.write('bench/wait.bench.json', {
    name: 'wait',
    cases: [
      { id: 'holder', prompt: '66000', checks: [], timeoutSec: 100 },
      { id: 'waiter', prompt: '100', checks: [], timeoutSec: 1 },
    ],
  });
  const result = await runCli(
    ['run', '--sandbox', 'none', '--concurrency', '1', '--json', 'bench/wait.bench.json', '--cmd', intervalAgent(log)],
    { cwd: p.dir, env: { TMPDIR: tmp }, timeoutMs: 140_000 },
  );
  expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
  const report = JSON.parse(String(result.stdout)) as Report;
  expect(report.results.map((row) => [row.id, row.passed])).toEqual([
    ['holder', true],
    ['waiter', true],
  ]);
  const [holder, waiter] = (await readAgentRuns(log)).sort((a, b) => a.start - b.start);
  expect(holder?.end).toBeDefined();
  expect((holder?.end ?? 0) - (holder?.start ?? 0)).toBeGreaterThanOrEqual(66_000);
  expect(waiter?.start).toBeGreaterThanOrEqual(holder?.end ?? Number.POSITIVE_INFINITY);
  await expectNothingLeft(
    expect,
    tmp,
    [holder, waiter].filter((run) => run !== undefined),
  );
}, 150_000);
