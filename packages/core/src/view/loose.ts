// Readers of a report's fields that trust nothing: a report of another version, or one an agent's
// output ended up in, may hold any JSON where a field is expected. Each returns the value only when it
// has the expected type, and cuts long strings so one field cannot blow up the page.

/** A plain object's fields, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** An array, or an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A finite number, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A string of at most `max` characters (cut with a note saying how much was left out), or undefined. */
export function text(value: unknown, max = 4096): string | undefined {
  if (typeof value !== 'string') return undefined;
  return cut(value, max);
}

/** `value` cut to at most `max` characters plus a note of what was left out. */
export function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  // Never split a surrogate pair: the half left behind would be a lone surrogate.
  const end = /[\uD800-\uDBFF]/.test(value.charAt(max - 1)) ? max - 1 : max;
  return `${value.slice(0, end)}\n… (${value.length - end} more characters not shown)`;
}

/** Strings of an array, each cut, at most `maxItems` of them. */
export function strings(value: unknown, maxItems = 200, max = 1024): string[] {
  const out: string[] = [];
  for (const item of list(value)) {
    const each = text(item, max);
    if (each !== undefined) out.push(each);
    if (out.length >= maxItems) break;
  }
  return out;
}
