import type { Containment } from '../process/command-launch.js';
import { clockTicksNow } from '../process/proc-stat.js';
import { killByToken } from '../process/sweep.js';

// What a command leaves running must not outlive the phase it belongs to. In a pid namespace (the
// bwrap sandbox's or a plain one) the kernel ends it with the command, so there is nothing to do
// here. Without one, the command's process group is killed when it ends (run-process.ts), and what
// left the group (setsid, double forks) is found by the case's token in /proc, which costs a read per
// process of the machine. So the sweep runs only where correctness needs it:
// - before the agent starts, if setup commands ran: nothing of the setup may run alongside the agent
//   (the namespace would have ended it too, and results must not depend on the mode);
// - after the agent, before the workspace is checked: nothing of the agent may change the workspace
//   while the checks read it;
// - at the end of the case, if commands ran since: nothing of the case outlives it.
// Not between two setup commands, nor between two command checks: those are the suite's own commands,
// a daemon of one is seen only by the suite's next command of the same phase, and one sweep at the end
// of the phase ends them all. Only processes that started after the case did can carry its token, so
// each sweep skips older ones unread.

// Start times and "now" are both whole clock ticks: a margin of two keeps rounding on the safe side.
const START_MARGIN_TICKS = 2;

/** The token sweep of one case's leftovers, for commands that no pid namespace contains. */
export class LeftoverSweep {
  /** How the case's commands are contained; until known, leftovers are swept. */
  containment: Containment = 'sweep';
  readonly #token: string;
  readonly #startedAfter: number;
  #pending = false;

  /** Call before the case's first command starts. */
  constructor(token: string) {
    this.#token = token;
    this.#startedAfter = Math.max(0, (clockTicksNow() ?? 0) - START_MARGIN_TICKS);
  }

  /** Records that a command of the case ran (and may have left processes behind). */
  commandRan(): void {
    if (this.containment === 'sweep') this.#pending = true;
  }

  /** Kills the leftovers of the commands that ran since the last call, where nothing else did. */
  async settle(): Promise<void> {
    if (!this.#pending) return;
    this.#pending = false;
    await killByToken(this.#token, { startedAfter: this.#startedAfter });
  }
}
