import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChaseHidden } from './chase.js';
import { generateFamilyTask } from './generate.js';
import type { LookupHidden } from './lookup.js';
import { TOOL_DIR_ENV, TOOL_SLOTS_ENV, toolScript } from './tool-scripts.js';
import { startToolServer, type ToolServer } from './tool-server.js';

// The server and the real tool program, each call a shell process, as an agent makes them.

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

let slotCount = 0;
/** A fresh directory for a server's reply slots, as the case area holds it. */
function slots(): string {
  slotCount += 1;
  return join(parent, `slots-${slotCount}`);
}

/** Runs `bin/<tool> arg` against the server: its exit code, stdout and stderr. */
async function callTool(server: ToolServer | undefined, tool: string, arg: string) {
  const env = {
    PATH: process.env.PATH ?? '',
    ...(server !== undefined && { [TOOL_DIR_ENV]: server.dir, [TOOL_SLOTS_ENV]: server.slotsDir }),
  };
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
    const server = await startToolServer(task, parent, slots());
    try {
      const [one, two, three] = hidden.hops;
      expect(await callTool(server, 'follow', one?.key ?? '')).toEqual({
        code: 0,
        stdout: `next: ${two?.key}\nfragment: ${one?.fragment}\n`,
        stderr: '',
      });
      await callTool(server, 'follow', two?.key ?? '');
      const fault = await callTool(server, 'follow', three?.key ?? '');
      expect(fault.code).toBe(75);
      expect(fault.stderr).toContain('call ./tools/follow again with the same key');
      expect(await callTool(server, 'follow', three?.key ?? '')).toMatchObject({
        code: 0,
        stdout: `next: END\nfragment: ${three?.fragment}\n`,
      });
      const wrong = await callTool(server, 'follow', 'nope');
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
    const server = await startToolServer(task, parent, slots());
    try {
      const replies = await Promise.all(entries.map((entry) => callTool(server, 'lookup', entry.id)));
      expect(replies.map((reply) => reply.stdout)).toEqual(entries.map((entry) => `value: ${entry.value}\n`));
      const calls = server.calls();
      expect(calls).toHaveLength(4);
      for (const call of calls) expect(call.endMs - call.startMs).toBeGreaterThanOrEqual(task.holdMs - 1);
    } finally {
      await server.close();
    }
  });

  it('removes its FIFOs on close, and the tool then says it cannot reach it', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 2, size: 2 });
    const server = await startToolServer(task, parent, slots());
    expect((await stat(join(server.dir, 'requests'))).isFIFO()).toBe(true);
    expect((await stat(server.dir)).mode & 0o777).toBe(0o700);
    await server.close();
    await expect(stat(server.dir)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(parent)).filter((name) => name.startsWith('gz-bench-tools-'))).toEqual([]);
    const late = await callTool(server, 'follow', 'x');
    expect(late.code).toBe(3);
    expect(late.stderr).toBe('follow: cannot reach the task server (it is gone)\n');
  });

  it('answers calls made at once each in its own slot, and frees the slots', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 3, size: 40 });
    const hidden = task.hidden as ChaseHidden;
    const server = await startToolServer(task, parent, slots());
    try {
      const replies = await Promise.all(hidden.hops.map((hop) => callTool(server, 'follow', hop.key)));
      expect(replies.map((reply) => reply.code)).toEqual(hidden.hops.map(() => 0));
      expect(replies.map((reply) => reply.stdout.split('\n')[1])).toEqual(
        hidden.hops.map((hop) => `fragment: ${hop.fragment}`),
      );
      expect(server.calls()).toHaveLength(hidden.hops.length);
      expect(await readdir(server.slotsDir)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('keeps an argument with spaces, quotes and $( ) whole, and refuses one of two lines or too long', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 2, size: 2 });
    const server = await startToolServer(task, parent, slots());
    try {
      const odd = 'a b  "c" $(touch pwned) \\n';
      expect(await callTool(server, 'follow', odd)).toMatchObject({
        code: 1,
        stderr: `error: unknown key ${JSON.stringify(odd)}\n`,
      });
      expect(server.calls().map((call) => call.arg)).toEqual([odd]);
      expect(await callTool(server, 'follow', 'a\nb')).toMatchObject({
        code: 2,
        stderr: 'follow: ARG must be one line\n',
      });
      expect(await callTool(server, 'follow', 'x'.repeat(1001))).toMatchObject({
        code: 2,
        stderr: 'follow: ARG is longer than 1000 characters\n',
      });
      expect(server.calls()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('ignores requests that are not its tools talking, and still answers them', async () => {
    const task = generateFamilyTask({ id: 'f', kind: 'pointerChase', seed: 2, size: 2 });
    const hidden = task.hidden as ChaseHidden;
    const server = await startToolServer(task, parent, slots());
    try {
      await writeFile(join(server.dir, 'requests'), `garbage\n999 follow x\n${'y'.repeat(10_000)}\n7\n`);
      expect(await callTool(server, 'follow', hidden.hops[0]?.key ?? '')).toMatchObject({ code: 0 });
      expect(server.calls()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('tells a tool run outside its case how it is meant to be used', async () => {
    const outside = await callTool(undefined, 'follow', 'x');
    expect(outside).toMatchObject({ code: 2 });
    expect(outside.stderr).toBe('follow: GZ_BENCH_TOOLS is not set: this tool works only inside its gz-bench case\n');
  });
});
