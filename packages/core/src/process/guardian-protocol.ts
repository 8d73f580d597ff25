import { isAbsolute } from 'node:path';
import { isCaseToken } from './sweep.js';

// What a guarded process tells its guardian, one JSON object a line on the guardian's stdin.

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

/** One message as a line. */
export function encodeMessage(message: GuardianMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * A line as a message, or undefined for anything malformed. Strict, because the guardian acts on it
 * with SIGKILL and recursive removal: a group id of 0 or 1 (this group, every process), a short
 * token or a relative path are refused.
 */
export function decodeMessage(line: string): GuardianMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.op === 'watch') return isPid(message.pid) ? { op: 'watch', pid: message.pid } : undefined;
  if (message.op !== 'add' && message.op !== 'remove') return undefined;
  const op = message.op;
  if (message.kind === 'group' && isPid(message.value)) return { op, kind: 'group', value: message.value };
  if (message.kind === 'token' && isCaseToken(message.value)) return { op, kind: 'token', value: message.value };
  if (
    message.kind === 'dir' &&
    typeof message.value === 'string' &&
    isAbsolute(message.value) &&
    message.value !== '/'
  ) {
    return { op, kind: 'dir', value: message.value };
  }
  return undefined;
}

function isPid(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 1;
}
