import { isRecord } from '../json-path.js';

/** A string field of an agent's record, or undefined for anything else. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A tool call's arguments as an object: the CLI's own when it is one, else wrapped as `{ value }`. */
export function toolArguments(value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  return value === undefined ? {} : { value };
}
