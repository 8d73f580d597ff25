import { readdir, readFile } from 'node:fs/promises';
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

/**
 * Processes other than this one whose environment has `name=value`: children of a run inherit the
 * private TMPDIR a test gives it, so this finds every process the run left behind, however detached.
 */
export async function processesWithEnv(name: string, value: string): Promise<number[]> {
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (environ.split('\0').includes(wanted) && (await isRunning(Number(entry)))) found.push(Number(entry));
  }
  return found;
}

/** Waits until `dir` is empty, as whatever cleans it finishes; resolves with what is left after `timeoutMs`. */
export async function waitUntilEmpty(dir: string, timeoutMs = 5000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await readdir(dir);
    if (left.length === 0 || Date.now() > deadline) return left;
    await delay(50);
  }
}
