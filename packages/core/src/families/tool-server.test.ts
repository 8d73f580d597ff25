import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChaseHidden } from './chase.js';
import { generateFamilyTask } from './generate.js';
import type { LookupHidden } from './lookup.js';
import { TOOL_SOCKET_ENV, toolScript } from './tool-scripts.js';
import { startToolServer } from './tool-server.js';

// The server and the real tool program, each call a node process, as an agent makes them.

const run = promisify(execFile);
let parent: string;
let bin: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'gzb-tools-test-'));
  bin = join(parent, 'bin');
  await mkdir(bin);
  for (const name of ['follow', 'lookup']) {
    await writeFile(join(bin, name), toolScript(name));
    await chmod(join(bin, name), 0o755);
  }
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** Runs `bin/<tool> arg` against the socket: its exit code, stdout and stderr. */
async function callTool(socket: string | undefined, tool: string, arg: string) {
  const env = { PATH: process.env.PATH ?? '', ...(socket !== undefined && { [TOOL_SOCKET_ENV]: socket }) };
  try {
    const { stdout, stderr } = await run(join(bin, tool), [arg], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the tool server', () => {
  it('answers follow calls, fails a fault hop once with exit 75, and logs every call', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'faultRecovery', seed: 2, size: 1 });
    const hidden = task.hidden as ChaseHidden;
    const server = await startToolServer(task, parent);
    try {
      const [one, two, three] = hidden.hops;
      expect(await callTool(server.socketPath, 'follow', one?.key ?? '')).toEqual({
        code: 0,
        stdout: `next: ${two?.key}\nfragment: ${one?.fragment}\n`,
        stderr: '',
      });
      await callTool(server.socketPath, 'follow', two?.key ?? '');
      const fault = await callTool(server.socketPath, 'follow', three?.key ?? '');
      expect(fault.code).toBe(75);
      expect(fault.stderr).toContain('call ./tools/follow again with the same key');
      expect(await callTool(server.socketPath, 'follow', three?.key ?? '')).toMatchObject({
        code: 0,
        stdout: `next: END\nfragment: ${three?.fragment}\n`,
      });
      const wrong = await callTool(server.socketPath, 'follow', 'nope');
      expect(wrong).toMatchObject({ code: 1, stderr: 'error: unknown key "nope"\n' });
      expect(server.calls().map((call) => call.reply)).toEqual(['ok', 'ok', 'fault', 'ok', 'error']);
      for (const call of server.calls()) expect(call.endMs).toBeGreaterThanOrEqual(call.startMs);
    } finally {
      await server.close();
    }
  });

  it('holds each lookup, so calls made at once overlap in the log', async () => {
    const task = generateFamilyTask({ id: 'l', kind: 'parallelLookup', seed: 2, size: 4 });
    const { entries } = task.hidden as LookupHidden;
    const server = await startToolServer(task, parent);
    try {
      const replies = await Promise.all(entries.map((entry) => callTool(server.socketPath, 'lookup', entry.id)));
      expect(replies.map((reply) => reply.stdout)).toEqual(entries.map((entry) => `value: ${entry.value}\n`));
      const calls = server.calls();
      expect(calls).toHaveLength(4);
      for (const call of calls) expect(call.endMs - call.startMs).toBeGreaterThanOrEqual(task.holdMs - 1);
    } finally {
      await server.close();
    }
  });

  it('removes its socket directory on close, and the tool then says it cannot reach it', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 2, size: 2 });
    const server = await startToolServer(task, parent);
    const dir = join(server.socketPath, '..');
    expect((await stat(server.socketPath)).isSocket()).toBe(true);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    await server.close();
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(parent)).filter((name) => name.startsWith('gz-bench-tools-'))).toEqual([]);
    const late = await callTool(server.socketPath, 'follow', 'x');
    expect(late.code).toBe(3);
    expect(late.stderr).toContain('follow: cannot reach the task server (ENOENT)');
  });

  it('drops a connection that never sends a request, so idle ones cannot pile up', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 2, size: 2 });
    const server = await startToolServer(task, parent, { idleTimeoutMs: 100 });
    try {
      const connection = createConnection(server.socketPath);
      const closed = await new Promise<boolean>((resolve) => {
        connection.on('close', () => resolve(true));
        setTimeout(() => resolve(false), 5000);
      });
      expect(closed).toBe(true);
      expect(server.calls()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('tells a tool run outside its case how it is meant to be used', async () => {
    const outside = await callTool(undefined, 'follow', 'x');
    expect(outside).toMatchObject({ code: 2 });
    expect(outside.stderr).toContain('GZ_BENCH_TOOL_SOCKET is not set');
  });

  it('refuses a socket path longer than Linux takes, with the fix', async () => {
    const deep = join(parent, 'd'.repeat(100));
    await mkdir(deep);
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 2, size: 2 });
    await expect(startToolServer(task, deep)).rejects.toThrow(
      /longer than 107 bytes: set TMPDIR to a shorter directory/,
    );
    expect(await readdir(deep)).toEqual([]);
  });
});
