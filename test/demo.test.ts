import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { REPO_ROOT } from './support/paths.js';
import { runVitest } from './support/run.js';

// `pnpm demo`, the README's first command: the example suites against two agents made of the bundled
// scripted one, three trials each, ending in the table and the scoreboard.

let tmp: string | undefined;
afterAll(async () => {
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

describe('pnpm demo', () => {
  it('passes, and ends in the scoreboard of steady against shaky', async ({ expect }) => {
    tmp = await mkdtemp(join(tmpdir(), 'gz-bench-demo-'));
    const result = await runVitest(['run', '--config', 'fixtures/demo/vitest.config.ts'], {
      cwd: REPO_ROOT,
      env: { TMPDIR: tmp, GZ_BENCH_REPORT: 'false', GZ_BENCH_LOGS: 'false', GZ_BENCH_MARKDOWN: 'false' },
      timeoutMs: 180_000,
    });
    const stdout = String(result.stdout);
    expect(result.exitCode, `${stdout}\n${String(result.stderr)}`).toBe(0);
    // 6 cases × 2 agents × 3 trials; shaky gives up on the first trial of each case.
    expect(stdout).toContain('36 runs: 30 passed, 6 failed');
    expect(stdout).toMatch(/^basics > write-hello {2,}3\/3 .* 2\/3~ /m);
    expect(stdout).toMatch(/^steady +100% /m);
    expect(stdout).toMatch(/^shaky +67% /m);
    expect(stdout).toMatch(/^steady leads shaky: 100% vs 67%, p = 0\.031 on 6 paired cases$/m);
    expect(await readdir(tmp)).toEqual([]);
  }, 200_000);
});
