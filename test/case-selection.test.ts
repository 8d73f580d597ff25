import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';

// `-t` is Vitest's regular expression: `-t fix-bug` runs `fix-bug-2` too, and `(paren` is no valid
// pattern. `--case` (run, check-suite) and `GZ_BENCH_CASES` (vitest) select cases by their exact id,
// or by a glob.

const cleanup = cleanupAfterAll();
const REPORT = 'out/report.json';

const IDS = ['fix-bug', 'fix-bug-2', '(paren', 'a b', 'other'];
const SUITE = {
  name: 'selection',
  cases: IDS.map((id) => ({
    id,
    prompt: 'p',
    solution: ['echo done > done.txt'],
    checks: [{ kind: 'fileExists', path: 'done.txt' }],
  })),
};
const SECOND = { name: 'second', cases: [{ id: 'elsewhere', prompt: 'p', checks: [] }] };

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

function ids(report: Report): string[] {
  return report.results.map((row) => row.id).sort();
}

async function cliRun(...cases: string[]): Promise<{ result: Result; report?: Report }> {
  const p = await cleanup.project({ 'bench/one.bench.json': SUITE, 'bench/two.bench.json': SECOND });
  const result = await runCli(
    [
      'run',
      'bench/one.bench.json',
      'bench/two.bench.json',
      '--cmd',
      'true',
      '--sandbox',
      'none',
      '--json',
      ...cases.flatMap((id) => ['--case', id]),
    ],
    { cwd: p.dir },
  );
  return result.exitCode === 2 ? { result } : { result, report: JSON.parse(String(result.stdout)) as Report };
}

describe('--case on gz-bench run', () => {
  it.each([
    [['fix-bug'], ['fix-bug']],
    [['(paren'], ['(paren']],
    [
      ['a b', 'elsewhere'],
      ['a b', 'elsewhere'],
    ],
    [['fix-*'], ['fix-bug', 'fix-bug-2']],
  ])('--case %j runs exactly %j', async (cases, expected) => {
    const { result, report } = await cliRun(...cases);
    // Every case fails (a no-op agent): exit 1, and the report holds only the selected cases.
    expect(result.exitCode, output(result)).toBe(1);
    expect(ids(report as Report)).toEqual([...expected].sort());
  });

  it('refuses a --case that names no case, in one line, before anything runs', async () => {
    const { result } = await cliRun('fix-bug', 'fix-bu', 'nope*');
    expect(result.exitCode, output(result)).toBe(2);
    expect(String(result.stderr).split('\n')[0]).toBe(
      'gz-bench: --case "fix-bu", "nope*": no case of the suites named has that id',
    );
    expect(String(result.stdout)).toBe('');
  });
});

describe('--case on gz-bench check-suite', () => {
  it('proves only the selected case', async () => {
    const p = await cleanup.project({ 'bench/one.bench.json': SUITE });
    const result = await runCli(['check-suite', 'bench/one.bench.json', '--sandbox', 'none', '--case', 'fix-bug'], {
      cwd: p.dir,
    });
    expect(result.exitCode, output(result)).toBe(0);
    expect(String(result.stdout)).toContain('all 1 cases fail with a no-op agent and pass with their own solution');
  });
});

describe('GZ_BENCH_CASES under vitest', () => {
  it('runs exactly the cases it names, lists no other, and reports none of the others as not run', async () => {
    const p = await cleanup.project({
      ...pluginProjectFiles({ cmd: 'echo done > done.txt', report: REPORT, table: false }),
      'bench/one.bench.json': SUITE,
      'bench/two.bench.json': SECOND,
    });
    const env = { GZ_BENCH_CASES: 'fix-bug,(paren' };
    const result = await runVitest(['run'], { cwd: p.dir, env });
    expect(result.exitCode, output(result)).toBe(0);
    const report = await readReport(p.dir, REPORT);
    expect(ids(report)).toEqual(['(paren', 'fix-bug']);
    expect(report.summary).toEqual({ total: 2, passed: 2, failed: 0 });
    const listed = await runVitest(['list'], { cwd: p.dir, env });
    expect(String(listed.stdout).trim().split('\n').sort()).toEqual([
      'bench/one.bench.json > selection > (paren',
      'bench/one.bench.json > selection > fix-bug',
    ]);
  });
});
