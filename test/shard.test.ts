import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles, replyCase, SCRIPTED_CMD } from './support/plugin-project.js';
import type { TempProject } from './support/project.js';
import { readReport } from './support/report.js';
import { runVitest } from './support/run.js';

// Vitest's sharding is gz-bench's distributed engine: `--shard=i/n --reporter=blob` on each machine, then
// `vitest --merge-reports` writes the one gz-bench report, from `task.meta` carried through the blobs.

const REPORT = 'out/report.json';

const cleanup = cleanupAfterAll();

/** Four suite files (one with a failing case), so that both shards of two have work. */
function shardedProject(): Promise<TempProject> {
  return cleanup.project({
    ...pluginProjectFiles({ cmd: SCRIPTED_CMD, report: REPORT }),
    'bench/a.bench.json': {
      name: 'alpha',
      cases: [
        {
          id: 'write-hello',
          prompt: "Create hello.txt containing 'hi'.",
          checks: [
            { kind: 'fileContains', path: 'hello.txt', text: 'hi' },
            { kind: 'command', run: 'grep -q hi hello.txt' },
          ],
        },
        replyCase('a-wrong', 'one', 'uno'),
      ],
    },
    'bench/b.bench.json': { name: 'beta', cases: [replyCase('b-one', 'bee')] },
    'bench/c.bench.json': { name: 'gamma', cases: [replyCase('c-one', 'sea'), replyCase('c-two', 'see')] },
    'bench/d.bench.json': { name: 'delta', cases: [replyCase('d-one', 'dee')] },
  });
}

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** The report without what differs from run to run: durations and `meta`. */
function comparable(report: Report): object {
  const { meta: _meta, ...rest } = report;
  return {
    ...rest,
    results: rest.results.map(({ durationMs: _duration, agent, ...result }) => {
      if (!agent) return result;
      const { durationMs: _agentDuration, ...agentRest } = agent;
      return { ...result, agent: agentRest };
    }),
  };
}

/** Suite files that a run with the default reporter printed as run. */
function filesRun(result: Result): string[] {
  return [...String(result.stdout).matchAll(/^ [✓❯×] (bench\/\S+\.bench\.json)/gm)].map((match) => match[1] ?? '');
}

describe.concurrent('sharded runs merged with --merge-reports', () => {
  it('merge the blobs of two shards into the report of an unsharded run', async ({ expect }) => {
    const p = await shardedProject();
    const reportPath = join(p.dir, REPORT);

    const whole = await runVitest(['run', 'bench/'], { cwd: p.dir });
    expect(whole.exitCode, output(whole)).toBe(1);
    const unsharded = await readReport(p.dir, REPORT);
    expect(unsharded.summary).toEqual({ total: 6, passed: 5, failed: 1 });
    await rm(reportPath);

    // The default reporter beside the blob one shows which files each shard ran.
    const shardArgs = (index: number) => [
      'run',
      'bench/',
      `--shard=${index}/2`,
      '--reporter=blob',
      '--reporter=default',
    ];
    const first = await runVitest(shardArgs(1), { cwd: p.dir });
    expect(existsSync(reportPath), 'shard 1 wrote the gz-bench report').toBe(false);
    const second = await runVitest(shardArgs(2), { cwd: p.dir });
    expect(existsSync(reportPath), 'shard 2 wrote the gz-bench report').toBe(false);
    for (const shard of [first, second]) {
      expect(String(shard.stdout), output(shard)).not.toMatch(/^id\s+result\s+checks/m);
      expect(filesRun(shard).length, output(shard)).toBeGreaterThan(0);
    }
    expect([...filesRun(first), ...filesRun(second)].sort()).toEqual([
      'bench/a.bench.json',
      'bench/b.bench.json',
      'bench/c.bench.json',
      'bench/d.bench.json',
    ]);
    expect((await readdir(join(p.dir, '.vitest-reports'))).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json']);

    const merged = await runVitest(['--merge-reports'], { cwd: p.dir });
    expect(merged.exitCode, output(merged)).toBe(1);
    const report = await readReport(p.dir, REPORT);
    expect(comparable(report)).toEqual(comparable(unsharded));
    expect(Object.keys(report)).toEqual(['summary', 'results', 'meta']);
    expect(report.results.find((r) => r.id === 'a-wrong')).toMatchObject({
      passed: false,
      file: 'bench/a.bench.json',
      suite: 'alpha',
      error: 'output does not match /^uno$/m',
    });
    // The merge run prints the table too.
    const stdout = String(merged.stdout);
    expect(stdout).toMatch(/^id\s+result\s+checks\s+time\s+first failure$/m);
    expect(stdout).toMatch(/^alpha > a-wrong\s+FAIL\s+0\/1\s+\d+ms\s+output does not match \/\^uno\$\/m$/m);
    expect(stdout).toContain('6 cases: 5 passed, 1 failed');
  });

  it('merges blobs written to --outputFile paths', async ({ expect }) => {
    const p = await shardedProject();
    for (const index of [1, 2]) {
      const args = ['run', 'bench/', `--shard=${index}/2`, '--reporter=blob', `--outputFile=blobs/shard-${index}.json`];
      const shard = await runVitest(args, { cwd: p.dir });
      expect(String(shard.stdout), output(shard)).toContain(`blobs/shard-${index}.json`);
    }
    expect(existsSync(join(p.dir, REPORT))).toBe(false);
    const merged = await runVitest(['--merge-reports=blobs'], { cwd: p.dir });
    expect(merged.exitCode, output(merged)).toBe(1);
    const report = await readReport(p.dir, REPORT);
    expect(report.summary).toEqual({ total: 6, passed: 5, failed: 1 });
    expect(report.results.map((r) => `${r.file} ${r.id} ${r.passed}`)).toEqual([
      'bench/a.bench.json write-hello true',
      'bench/a.bench.json a-wrong false',
      'bench/b.bench.json b-one true',
      'bench/c.bench.json c-one true',
      'bench/c.bench.json c-two true',
      'bench/d.bench.json d-one true',
    ]);
    const hello = report.results[0];
    expect(hello?.checkResults).toEqual([
      { kind: 'fileContains', path: 'hello.txt', text: 'hi', passed: true },
      expect.objectContaining({ kind: 'command', run: 'grep -q hi hello.txt', passed: true, exitCode: 0 }),
    ]);
    expect(hello?.agent?.outputTail).toBe("scripted agent: done: Create hello.txt containing 'hi'\n");
  });
});
