import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrajectorySchema } from '../agents/trajectory/schema.js';
import { transcriptPath } from '../agents/usage/test-support/temp-output.js';
import { caseLogLocation } from '../logs/log-paths.js';
import type { Case } from '../suite/schema.js';
import { runCase } from './run-case.js';

let root: string;
let tmp: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-case-trajectory-')));
  tmp = join(root, 'tmp');
  await mkdir(tmp);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const logs = () =>
  caseLogLocation({ logsDir: join(root, '.gz-bench/logs'), root, suiteFile: 's.bench.json', caseId: 'c' });
const testCase: Case = { id: 'c', prompt: 'Run the commands.', checks: [{ kind: 'outputMatches', pattern: 'result' }] };
// The agent prints Claude Code's recorded stream: three Bash calls and a final text.
const cmd = `cat '${transcriptPath('claude-code.shell')}'`;
const trajectory = { format: 'claude-code', agent: { name: 'claude-code:sonnet', preset: 'claude-code' } };
const DIR = '.gz-bench/logs/s.bench.json/c';

describe('runCase: trajectory', { timeout: 60_000 }, () => {
  it("writes trajectory.json beside the agent's log and sums it up in the row", async () => {
    const result = await runCase(testCase, {
      cmd,
      tmpDir: tmp,
      logs: logs(),
      usage: { builtin: 'claude-code' },
      trajectory,
    });
    expect(result.passed).toBe(true);
    expect(result.trajectory).toEqual({
      format: 'claude-code',
      file: `${DIR}/trajectory.json`,
      steps: 5,
      toolCalls: 3,
    });
    const written = TrajectorySchema.parse(JSON.parse(await readFile(join(root, DIR, 'trajectory.json'), 'utf8')));
    expect(written.steps[0]).toEqual({ step_id: 1, source: 'user', message: 'Run the commands.' });
    // The CLI's init event lists what it offered the model; gz-bench's own name of the agent beside it.
    expect(written.agent.extra).toEqual({ gz_bench_agent: 'claude-code:sonnet', offered_skills: expect.any(Array) });
    expect(written.final_metrics?.total_cost_usd).toBe(result.agent?.usage?.costUsd);
    expect(result.agent?.usage?.toolCalls).toBe(3);
  });

  it('reads steps without a usage extractor, and gives the summary alone without logs', async () => {
    const result = await runCase(testCase, { cmd, tmpDir: tmp, trajectory });
    expect(result.trajectory).toEqual({ format: 'claude-code', steps: 5, toolCalls: 3 });
    expect(result.agent?.usage).toBeUndefined();
  });

  it("leaves no trajectory of an earlier run for a run that reads none, and none for the oracle's solution", async () => {
    await runCase(testCase, { cmd, tmpDir: tmp, logs: logs(), trajectory });
    expect(existsSync(join(root, DIR, 'trajectory.json'))).toBe(true);
    const again = await runCase(testCase, { cmd, tmpDir: tmp, logs: logs() });
    expect(again.trajectory).toBeUndefined();
    expect(existsSync(join(root, DIR, 'trajectory.json'))).toBe(false);
    const oracle = await runCase(testCase, { cmd, tmpDir: tmp, logs: logs(), trajectory, solution: ['echo result'] });
    expect(oracle.trajectory).toBeUndefined();
  });
});
