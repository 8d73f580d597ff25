import { probeSandbox } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { runCli } from './support/run.js';

const { project } = cleanupAfterAll();
const { available } = await probeSandbox();
const NOTICE = 'gz-bench: cases run in the bwrap sandbox (host read-only, only each case area writable)';

// What the default sandbox does to an agent is said once per run, with the way to turn it off.
describe.concurrent('the sandbox notice', () => {
  const suite = { name: 's', cases: [{ id: 'a', prompt: 'p', checks: [] }] };

  it.skipIf(!available)('is printed when auto picks bwrap, and the result records it', async () => {
    const temp = await project({ 'suite.json': suite });
    const result = await runCli(['run', 'suite.json', '--cmd', 'true', '--json'], { cwd: temp.dir });
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toContain(NOTICE);
    expect(JSON.parse(String(result.stdout)).results[0].sandbox).toBe('bwrap');
  });

  it('is not printed when the sandbox is turned off', async () => {
    const temp = await project({ 'suite.json': suite });
    const result = await runCli(['run', 'suite.json', '--cmd', 'true', '--json', '--sandbox', 'none'], {
      cwd: temp.dir,
    });
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).not.toContain(NOTICE);
    expect(JSON.parse(String(result.stdout)).results[0].sandbox).toBe('none');
  });
});
