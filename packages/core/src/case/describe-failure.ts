import { formatSeconds } from '../checks/messages.js';
import type { ProcessResult } from '../process/types.js';

const MIB = 1024 * 1024;

/** Says why a command did not succeed, e.g. `timed out after 120s` or `exited with 1`; undefined when it exited 0. */
export function describeCommandFailure(result: ProcessResult, timeoutMs: number): string | undefined {
  if (result.spawnError !== undefined) return `could not start (${result.spawnError})`;
  if (result.timedOut) return `timed out after ${formatSeconds(timeoutMs)}`;
  if (result.limitExceeded) {
    const { kind, limitBytes } = result.limitExceeded;
    return `exceeded the ${kind} limit of ${formatMiB(limitBytes)}`;
  }
  if (result.aborted) return 'was interrupted';
  if (result.signal !== null) return `was killed by ${result.signal}`;
  if (result.exitCode !== 0) return `exited with ${result.exitCode}`;
  return undefined;
}

function formatMiB(bytes: number): string {
  return `${Number((bytes / MIB).toFixed(2))} MiB`;
}
