import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** True while the process runs; a zombie waiting to be reaped counts as ended. */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until none of the processes runs; resolves with those still running after `timeoutMs`. */
export async function waitUntilEnded(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = [];
    for (const pid of pids) if (await isRunning(pid)) running.push(pid);
    if (running.length === 0 || Date.now() > deadline) return running;
    await delay(50);
  }
}

/** Waits for a file to appear and returns its lines as pids. */
export async function readPidFile(file: string, timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) return text.trim().split('\n').map(Number);
    if (Date.now() > deadline) throw new Error(`no pid file at ${file} after ${timeoutMs} ms`);
    await delay(50);
  }
}
