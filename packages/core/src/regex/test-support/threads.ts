import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** CPU ticks (user + system) of each thread of this process, by thread id. */
async function threadTicks(): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  for (const tid of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue;
    // Fields after the parenthesised name: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

/**
 * The thread of this process, other than the main thread, that used the most CPU over `sampleMs`: the
 * one running a match that backtracks catastrophically, which keeps a core busy.
 */
export async function busiestOtherThread(sampleMs = 300): Promise<number | undefined> {
  const before = await threadTicks();
  await delay(sampleMs);
  const after = await threadTicks();
  let busiest: { tid: number; ticks: number } | undefined;
  for (const [tid, ticks] of after) {
    const used = ticks - (before.get(tid) ?? 0);
    if (tid !== process.pid && used > 0 && (busiest === undefined || used > busiest.ticks))
      busiest = { tid, ticks: used };
  }
  return busiest?.tid;
}

/** Whether a thread of this process with this id still exists. */
export async function threadExists(tid: number): Promise<boolean> {
  return (await readdir('/proc/self/task')).includes(String(tid));
}

/**
 * Whether the thread is gone within `ms`: the kernel lists a thread a moment after Node has let go of
 * it, so a check made at the very instant a termination resolved can still find it.
 */
export async function threadGoneWithin(tid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (await threadExists(tid)) {
    if (performance.now() > deadline) return false;
    await delay(20);
  }
  return true;
}
