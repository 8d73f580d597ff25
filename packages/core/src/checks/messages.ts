import { detachedCopy } from '../process/output-buffer.js';

/** Shortens `text` to at most `maxChars` characters, ending with `…` when something was cut. */
export function truncateText(text: string, maxChars: number): string {
  const chars = Array.from(text); // code points, so a surrogate pair is never split
  return chars.length <= maxChars ? text : `${chars.slice(0, maxChars - 1).join('')}…`;
}

/** Keeps the last `maxChars` characters of `text`, starting with `…` when something was cut. */
export function tailText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let tail = text.slice(text.length - maxChars + 1);
  // Slicing by UTF-16 units may start in the middle of a surrogate pair; drop the orphaned half.
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  // A slice would keep the whole text alive for as long as the result lives.
  return detachedCopy(`…${tail}`);
}

/** The message of anything thrown, for a one-line failure message. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Milliseconds as messages print a time bound: `120s`, `0.5s`. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
