import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { findOnPath, probeSandbox } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { netnsPrefix, offlineUnavailable } from './support/agent-cli.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { runCli } from './support/run.js';

// `--sandbox bwrap` where bubblewrap cannot work is a fault of the machine: one line that says why
// and what to do, exit 1, before anything runs; `auto` runs the cases without the sandbox and says so.

const { project } = cleanupAfterAll();
const SUITE = {
  name: 's',
  cases: [{ id: 'a', prompt: 'p', checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }] }],
};
const CMD = "printf 'hi\\n' > hello.txt";

function stderrLines(result: { stderr: unknown }): string[] {
  return String(result.stderr).trim().split('\n');
}

describe('bubblewrap that is not installed', () => {
  it('stops --sandbox bwrap in one line, without a stack trace', async () => {
    const temp = await project({ 'suite.json': SUITE });
    // A PATH with what the CLI's launcher and Node need, and no bwrap.
    const bin = join(temp.dir, 'bin');
    await mkdir(bin);
    for (const tool of ['sh', 'dirname', 'sed', 'uname', 'node']) {
      const found = findOnPath(tool, process.env.PATH ?? '');
      if (found !== undefined) await symlink(found, join(bin, tool));
    }
    const result = await runCli(['run', 'suite.json', '--cmd', CMD, '--sandbox', 'bwrap'], {
      cwd: temp.dir,
      env: { PATH: bin },
    });
    expect(result.exitCode, String(result.stderr)).toBe(1);
    expect(stderrLines(result)).toEqual([
      'gz-bench: sandbox "bwrap" was requested but bubblewrap is not installed; install bubblewrap (e.g. `apt-get install bubblewrap`), or use sandbox "auto" or "none"',
    ]);
  });
});

// gz-bench started in a pid namespace of its own whose /proc is still the host's (`unshare --pid
// --fork` without --mount-proc): bwrap looks its sandbox's pid up under /proc, finds another process
// or none there, and fails (`bwrap: open /proc/57/ns/ns failed`) or not by which host pids exist.
const { available } = await probeSandbox();
const namespaceMissing = offlineUnavailable();
const FOREIGN = /\/proc belongs to another pid namespace \(it shows this process as pid \d+, not \d+\)/;

describe.skipIf(!available || namespaceMissing !== undefined)(
  'a harness whose /proc is not its pid namespace’s',
  () => {
    const run = async (sandbox: string) => {
      const temp = await project({ 'suite.json': SUITE });
      return runCli(['run', 'suite.json', '--cmd', CMD, '--json', '--sandbox', sandbox], {
        cwd: temp.dir,
        via: netnsPrefix('self'),
      });
    };

    it('stops --sandbox bwrap before anything runs, saying why and how to fix it', async () => {
      const result = await run('bwrap');
      expect(result.exitCode, String(result.stderr)).toBe(1);
      const lines = stderrLines(result);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(FOREIGN);
      expect(lines[0]).toContain(
        'mount a /proc of this pid namespace (e.g. `unshare --pid --fork --mount-proc`), or use sandbox "auto" or "none"',
      );
    });

    it('runs the cases without the sandbox under auto, and says so', async () => {
      const result = await run('auto');
      expect(result.exitCode, String(result.stderr)).toBe(0);
      expect(String(result.stderr)).toMatch(FOREIGN);
      expect(String(result.stderr)).toContain('cases run without a sandbox');
      expect(JSON.parse(String(result.stdout)).results[0]).toMatchObject({ passed: true, sandbox: 'none' });
    });
  },
);

if (!available || namespaceMissing !== undefined) {
  it.skip(`a foreign /proc: ${available ? namespaceMissing : 'bwrap does not work here'}`, () => {});
}
