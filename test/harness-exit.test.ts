import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentPath, REPO_ROOT } from './support/paths.js';
import { readPidFile, waitUntilEnded } from './support/processes.js';

// A harness process that runs a case whose agent leaves a child and a grandchild, then dies in the given way.
function harness(pidFile: string, workspaces: string, ending: 'signal' | 'exit') {
  const script = `
    const { runCase } = await import(${JSON.stringify(join(REPO_ROOT, 'packages/core/dist/index.js'))});
    const run = runCase(
      { id: 'hangs', prompt: 'p', checks: [] },
      { cmd: ${JSON.stringify(`'${process.execPath}' '${agentPath('grandchildren.mjs')}' '${pidFile}'`)}, tmpDir: ${JSON.stringify(workspaces)} },
    );
    ${ending === 'exit' ? 'setTimeout(() => process.exit(3), 1500);' : ''}
    await run;`;
  return execa(process.execPath, ['--input-type=module', '-e', script], { reject: false, stdin: 'ignore' });
}

describe('when the harness process ends while an agent runs', () => {
  let dir: string;
  let seen: number[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gz-bench-harness-exit-'));
  });
  const workspaces = async () => {
    const path = join(dir, 'workspaces');
    await mkdir(path);
    return path;
  };
  afterEach(async () => {
    // Should a test fail, leave nothing running behind it.
    for (const pid of seen) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    seen = [];
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'kills the agent tree on %s, removes the workspace and still dies of it',
    async (signal) => {
      const pidFile = join(dir, 'pids');
      const run = harness(pidFile, await workspaces(), 'signal');
      const pids = await readPidFile(pidFile);
      seen = pids;
      run.kill(signal);
      const result = await run;
      expect(result.signal).toBe(signal);
      expect(await waitUntilEnded([...pids, run.pid as number])).toEqual([]);
      expect(await readdir(join(dir, 'workspaces'))).toEqual([]);
    },
  );

  it('kills the agent tree and removes the workspace when the harness calls process.exit', async () => {
    const pidFile = join(dir, 'pids');
    const run = harness(pidFile, await workspaces(), 'exit');
    const pids = await readPidFile(pidFile);
    seen = pids;
    const result = await run;
    expect(result.exitCode).toBe(3);
    expect(await waitUntilEnded(pids)).toEqual([]);
    expect(await readdir(join(dir, 'workspaces'))).toEqual([]);
  });
});
