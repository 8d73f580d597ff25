import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseArea } from '../workspace/case-area.js';
import { freshVerifierLogs, readTaskReward, taskLogsDir } from './task-layout.js';

// A task's verifier writes its verdict to /logs/verifier: reward.txt (a number) or reward.json.

let root: string;
let area: CaseArea;
const verifierFile = (name: string) => join(taskLogsDir(area), 'verifier', name);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gz-bench-reward-'));
  area = { root } as CaseArea;
  await freshVerifierLogs(area);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('readTaskReward', () => {
  it('is undefined without a reward file, so the exit code decides', async () => {
    expect(await readTaskReward(area)).toBeUndefined();
  });

  it.each([
    ['1\n', 1, true],
    ['1.0', 1, true],
    ['0', 0, false],
    ['0.5', 0.5, false],
  ])('reads reward.txt %j as %s (passes: %s)', async (text, value, passed) => {
    await writeFile(verifierFile('reward.txt'), text);
    expect(await readTaskReward(area)).toEqual({ file: '/logs/verifier/reward.txt', value, passed });
  });

  it('reads reward.json: its reward key, else every value', async () => {
    await writeFile(verifierFile('reward.json'), '{"reward": 1, "tests": 0}');
    expect(await readTaskReward(area)).toMatchObject({ passed: true });
    await writeFile(verifierFile('reward.json'), '{"a": 1, "b": 0}');
    expect(await readTaskReward(area)).toMatchObject({ value: { a: 1, b: 0 }, passed: false });
  });

  it('says why a file is no reward: not a number, not JSON, a link', async () => {
    await writeFile(verifierFile('reward.txt'), 'yes');
    expect(await readTaskReward(area)).toEqual({ file: '/logs/verifier/reward.txt', problem: 'not a number: "yes"' });
    await rm(verifierFile('reward.txt'));
    await writeFile(verifierFile('reward.json'), '[1]');
    expect(await readTaskReward(area)).toMatchObject({ problem: 'not a JSON object of numbers' });
    await rm(verifierFile('reward.json'));
    await writeFile(join(root, 'elsewhere'), '1');
    await symlink(join(root, 'elsewhere'), verifierFile('reward.txt'));
    expect(await readTaskReward(area)).toMatchObject({ problem: 'not a regular file' });
  });

  it('refuses to reuse a verifier directory that is there already', async () => {
    await expect(freshVerifierLogs(area)).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
