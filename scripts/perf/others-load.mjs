// How much of the machine other work took while the benchmark ran: the CPU time the whole machine
// spent busy (/proc/stat), less the CPU time of this run's own processes (this process and the
// children it waited for, /proc/self/stat). A load average cannot tell the two apart, since the
// benchmark's own harness runs load the machine too.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Busy clock ticks of all CPUs since boot: everything but idle and iowait. */
function machineBusyTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return user + nice + system + irq + softirq + steal;
}

/** Clock ticks of this process and of its waited-for children: utime, stime, cutime, cstime. */
function ownTicks() {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields 14 to 17 of proc(5), counted from the state field (3).
  return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
}

/** Starts watching; `share()` is the fraction of the machine's CPU that others used since. */
export function watchOthers() {
  const started = { busy: machineBusyTicks(), own: ownTicks(), at: performance.now() };
  return {
    share() {
      // USER_HZ is 100 on every Linux Node supports.
      const capacity = ((performance.now() - started.at) / 1000) * 100 * availableParallelism();
      const others = machineBusyTicks() - started.busy - (ownTicks() - started.own);
      return capacity > 0 ? Math.max(0, others / capacity) : 0;
    },
  };
}
