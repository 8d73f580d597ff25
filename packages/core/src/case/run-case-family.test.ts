import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateFamilyTask } from '../families/generate.js';
import type { Case } from '../suite/schema.js';
import { runCase } from './run-case.js';

// A family case through runCase: its tools in the workspace, its server's verdict after the agent.

const SOLVER = fileURLToPath(new URL('../../../../fixtures/agents/family-solver.mjs', import.meta.url));
const chase: Case = {
  id: 'chase size 3',
  prompt: 'Follow a chain of 3 keys',
  checks: [],
  family: { id: 'chase', kind: 'pointerChase', seed: 5, size: 3 },
};

describe('runCase with a family case', () => {
  let tmpDir: string;
  beforeEach(async () => {
    tmpDir = await mkdtemp(join(tmpdir(), 'gzb-family-case-'));
  });
  afterEach(async () => {
    await rm(tmpDir, { recursive: true, force: true });
  });

  it('passes a careful agent, reports its calls, and leaves nothing in the temp dir', async () => {
    // The solver reads the first key from the real prompt, which loading a suite generates.
    const prompt = generateFamilyTask(chase.family as NonNullable<Case['family']>).prompt;
    const result = await runCase({ ...chase, prompt }, { cmd: `node '${SOLVER}'`, tmpDir });
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
    expect(result.family).toEqual({
      id: 'chase',
      kind: 'pointerChase',
      seed: 5,
      size: 3,
      calls: 3,
      idealCalls: 3,
      maxConcurrency: 1,
    });
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('fails an agent that never calls at the family check, and one that then exits 1 as an agent error', async () => {
    const idle = await runCase(chase, { cmd: 'true', tmpDir });
    expect(idle).toMatchObject({
      passed: false,
      outcome: 'failed',
      failedStep: 'check',
      error: 'stopped at hop 1: follow calls reached only 0 of 3 hops',
      family: { calls: 0, idealCalls: 3 },
    });
    const crashed = await runCase(chase, { cmd: 'echo "Error: no model" >&2; exit 1', tmpDir });
    expect(crashed).toMatchObject({
      passed: false,
      outcome: 'agentError',
      error: 'agent command exited with 1: Error: no model',
    });
  });

  it('gives the agent its tool, the FIFOs and a slots directory in its area, and no tool server outlives the case', async () => {
    const result = await runCase(chase, {
      cmd: 'test -x tools/follow && test -p "$GZ_BENCH_TOOLS/requests" && test -p "$GZ_BENCH_TOOLS/r127" && test ! -e "$GZ_BENCH_TOOLS/r128" && test "$GZ_BENCH_TOOL_SLOTS" = "$(dirname "$GZ_BENCH_DIR")/tool-slots" && ls "$GZ_BENCH_TOOL_SLOTS" | wc -l',
      tmpDir,
    });
    expect(result.agent?.exitCode).toBe(0);
    expect(result.agent?.outputTail).toBe('0\n');
    expect(await readdir(tmpDir)).toEqual([]);
  });
});
