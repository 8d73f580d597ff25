import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeSandbox } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { REPO_ROOT } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { runCli, runVitest } from './support/run.js';

// `gz-bench check-suite` runs every case with a no-op agent and with its own solution, and names
// exactly the cases whose checks do not tell the two apart.

const { project } = cleanupAfterAll();
const probe = await probeSandbox();
const SANDBOXES = ['none', ...(probe.available ? ['bwrap'] : [])];

const DEMO_SUITES = ['basics', 'bugfix', 'replies'].map((name) => `fixtures/demo/bench/${name}.bench.json`);

const hello = [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }];

const GOOD_CASES = [
  { id: 'writes-hello', prompt: 'p', solution: ['echo hi > hello.txt'], checks: hello },
  {
    id: 'replies',
    prompt: 'p',
    // One shell: the cd carries over to the next line.
    solution: ['mkdir sub', 'cd sub', 'test "$(basename "$PWD")" = sub # still in sub', 'echo done'],
    checks: [{ kind: 'outputMatches', pattern: '^done$', flags: 'm' }],
  },
  {
    id: 'hidden-test',
    prompt: 'p',
    verify: 'verify',
    solution: ['echo 42 > answer.txt'],
    checks: [{ kind: 'command', run: 'sh {{verify}}/check.sh' }],
  },
];

const BAD_CASES = [
  { id: 'lax', prompt: 'p', solution: ['echo hi > hello.txt'], checks: [{ kind: 'fileNotExists', path: 'x.txt' }] },
  { id: 'wrong-solution', prompt: 'p', solution: ['echo ho > hello.txt'], checks: hello },
  { id: 'unsolved', prompt: 'p', checks: hello },
  { id: 'stops-at-first-failure', prompt: 'p', solution: ['false', 'echo hi > hello.txt'], checks: hello },
];

async function checkSuite(suites: Record<string, object>, sandbox: string) {
  const temp = await project({ ...suites, 'verify/check.sh': 'test "$(cat "$GZ_BENCH_DIR/answer.txt")" = 42\n' });
  const tmp = join(temp.dir, 'tmp');
  await mkdir(tmp);
  const result = await runCli(['check-suite', ...Object.keys(suites), '--sandbox', sandbox], {
    cwd: temp.dir,
    env: { TMPDIR: tmp },
    timeoutMs: 120_000,
  });
  // Every case area of both runs is gone.
  expect(await readdir(tmp)).toEqual([]);
  return result;
}

describe.each(SANDBOXES)('gz-bench check-suite (sandbox %s)', (sandbox) => {
  it('names exactly the cases that do not discriminate, and exits 1', async () => {
    const result = await checkSuite(
      {
        'a.bench.json': { name: 'a', cases: [...GOOD_CASES.slice(0, 1), ...BAD_CASES.slice(0, 2)] },
        'b.bench.json': { name: 'b', cases: [...GOOD_CASES.slice(1), ...BAD_CASES.slice(2)] },
      },
      sandbox,
    );
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout).split('\n')).toEqual([
      'a.bench.json: lax: passes with a no-op agent',
      'a.bench.json: wrong-solution: fails with its own solution: file does not contain "hi": hello.txt',
      'b.bench.json: unsolved: no solution',
      'b.bench.json: stops-at-first-failure: fails with its own solution: agent command exited with 1',
    ]);
    expect(result.stderr).toContain('gz-bench: 4 of 7 cases do not discriminate');
  }, 150_000);

  it('exits 0 when every case fails with a no-op agent and passes with its solution', async () => {
    const result = await checkSuite({ 'good.bench.json': { name: 'good', cases: GOOD_CASES } }, sandbox);
    expect(result.stdout).toBe('gz-bench: all 3 cases fail with a no-op agent and pass with their own solution');
    expect(result.exitCode).toBe(0);
  }, 150_000);
});

describe('the plugin with GZ_BENCH_CHECK_SUITE', () => {
  it('fails exactly the cells of the cases that do not discriminate, and passes a sound suite', async () => {
    const temp = await project({
      ...pluginProjectFiles({ cmd: 'false', report: 'report.json', markdown: false }),
      'bench/bad.bench.json': { name: 'bad', cases: [GOOD_CASES[0], ...BAD_CASES.slice(0, 3)] },
      'sound/good.bench.json': { name: 'good', cases: GOOD_CASES.slice(0, 2) },
    });
    const bad = await runVitest(['run', 'bench/', '--reporter=json', '--outputFile=results.json'], {
      cwd: temp.dir,
      env: { GZ_BENCH_CHECK_SUITE: '1' },
      timeoutMs: 120_000,
    });
    expect(bad.exitCode).toBe(1);
    const json = JSON.parse(await readFile(join(temp.dir, 'results.json'), 'utf8')) as {
      testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
    };
    const failed = json.testResults
      .flatMap((file) => file.assertionResults)
      .filter((test) => test.status === 'failed')
      .map((test) => [test.fullName, test.failureMessages[0]?.split('\n')[0]]);
    expect(failed.sort()).toEqual(
      [
        ['bad no-op lax', 'CaseFailure: passes with a no-op agent'],
        ['bad solution unsolved', 'CaseFailure: no solution'],
        [
          'bad solution wrong-solution',
          'CaseFailure: fails with its own solution: file does not contain "hi": hello.txt',
        ],
      ].sort(),
    );
    const good = await runVitest(['run', 'sound/'], {
      cwd: temp.dir,
      env: { GZ_BENCH_CHECK_SUITE: '1' },
      timeoutMs: 120_000,
    });
    expect(good.exitCode).toBe(0);
  }, 150_000);
});

describe('gz-bench check-suite on this repository and on mistakes', () => {
  it("passes the demo's suites", async () => {
    const result = await runCli(['check-suite', ...DEMO_SUITES, '--sandbox', 'none'], {
      cwd: REPO_ROOT,
      timeoutMs: 120_000,
    });
    expect(result.stdout).toBe('gz-bench: all 6 cases fail with a no-op agent and pass with their own solution');
    expect(result.exitCode).toBe(0);
  }, 150_000);

  it('exits 2 for a usage or suite error, in one line', async () => {
    const temp = await project({
      's.bench.json': { name: 's', verify: 'nope', cases: [{ id: 'a', prompt: 'p', checks: [] }] },
    });
    const none = await runCli(['check-suite'], { cwd: temp.dir });
    expect(none.exitCode).toBe(2);
    expect(String(none.stderr).split('\n')[0]).toBe('gz-bench: check-suite needs at least one suite file');
    const invalid = await runCli(['check-suite', 's.bench.json'], { cwd: temp.dir });
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toBe('gz-bench: s.bench.json: invalid suite at verify: verifier directory not found: nope');
  });
});
