import { isAbsolute } from 'node:path';
import { isCaseToken } from './sweep.js';

// What a guarded process tells its guardian (guardian-script.ts), one line on the guardian's stdin.

/** Something the guardian ends or removes should the guarded process die before it does. */
export type GuardedItem =
  | { kind: 'group'; value: number }
  | { kind: 'token'; value: string }
  | { kind: 'dir'; value: string };

/** One line of the protocol. */
export type GuardianMessage =
  | ({ op: 'add' | 'remove' } & GuardedItem)
  | {
      /** Should this process die, the guardian kills the guarded process too, then cleans up. */
      op: 'watch';
      pid: number;
    };

/**
 * One message as a line, or undefined for one the guardian would refuse (it checks every line
 * itself): a group id or pid of 0 or 1, a malformed token, a relative path, `/`, or a path that
 * holds a newline, which the line protocol cannot carry.
 */
export function encodeMessage(message: GuardianMessage): string | undefined {
  if (message.op === 'watch') return isPid(message.pid) ? `watch ${message.pid}\n` : undefined;
  const valid =
    message.kind === 'group'
      ? isPid(message.value)
      : message.kind === 'token'
        ? isCaseToken(message.value)
        : isAbsolute(message.value) && message.value !== '/' && !message.value.includes('\n');
  return valid ? `${message.op} ${message.kind} ${message.value}\n` : undefined;
}

function isPid(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 1 && value < 1e10;
}
