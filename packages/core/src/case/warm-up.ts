import { CONTAINMENT_ENV, probePidNamespace } from '../process/pid-namespace.js';

/**
 * Starts what the first case of a process would otherwise wait for before its first command, while
 * the process has other work to do (Vitest collecting the suite, the case waiting for its slot): the
 * probe of a pid namespace for commands outside the sandbox, a spawn of `unshare` (see
 * command-launch.ts). Its answer is kept for every later case of the process.
 */
export function warmUpCommandLaunch(sandbox: 'bwrap' | 'none', env: NodeJS.ProcessEnv = process.env): void {
  // As commandLaunch decides: the sandbox has a pid namespace of its own, and `sweep` asks for none.
  if (sandbox === 'none' && env[CONTAINMENT_ENV] !== 'sweep') void probePidNamespace();
}
