import { isRecord } from '../json-path.js';

/** A string field of an agent's record, or undefined for anything else. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * An agent's timestamp (an ISO 8601 string, or milliseconds since the epoch) as ISO 8601, or
 * undefined when it is neither or out of the range a date can hold.
 */
export function isoTime(value: unknown): string | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A tool call's arguments as an object: the CLI's own when it is one, else wrapped as `{ value }`. */
export function toolArguments(value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  return value === undefined ? {} : { value };
}
