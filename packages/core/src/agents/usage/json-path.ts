/** One step of a JSON path: a key, an index (negative from the end), or every member (`*`). */
export type PathStep = { key: string } | { index: number } | { every: true };

/** Raised for a JSON path that does not parse; the message says where. */
export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

const KEY = /^[^.[\]"'\s]+/;

/**
 * Parses a path into a JSON value: keys joined by dots (`usage.input_tokens`), `[n]` indexes
 * (`[-1]` is the last element), `*` or `[*]` for every member of an object or array
 * (`stats.models.*.tokens.input`), and `["key"]` for keys with dots or spaces. A leading `$` or `$.`
 * is allowed.
 */
export function parseJsonPath(path: string): PathStep[] {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1).replace(/^\./, '');
  if (rest === '') throw new JsonPathError(`the path "${path}" is empty`);
  const steps: PathStep[] = [];
  let expectDot = false;
  while (rest !== '') {
    if (rest.startsWith('[')) {
      const close = bracketEnd(rest);
      if (close < 0) throw new JsonPathError(`unclosed [ in the path "${path}"`);
      steps.push(bracketStep(rest.slice(1, close).trim(), path));
      rest = rest.slice(close + 1);
      expectDot = true;
      continue;
    }
    if (expectDot) {
      if (!rest.startsWith('.')) throw new JsonPathError(`expected "." or "[" at "${rest}" in the path "${path}"`);
      rest = rest.slice(1);
    }
    const key = KEY.exec(rest)?.[0];
    if (key === undefined) throw new JsonPathError(`expected a key at "${rest}" in the path "${path}"`);
    steps.push(key === '*' ? { every: true } : { key });
    rest = rest.slice(key.length);
    expectDot = true;
  }
  return steps;
}

function bracketEnd(text: string): number {
  const quote = text[1];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 2);
    return end < 0 || text[end + 1] !== ']' ? -1 : end + 1;
  }
  return text.indexOf(']');
}

function bracketStep(inner: string, path: string): PathStep {
  if (inner === '*') return { every: true };
  if (/^-?\d+$/.test(inner)) return { index: Number(inner) };
  const quoted = /^(["'])(.*)\1$/s.exec(inner);
  if (quoted) return { key: quoted[2] ?? '' };
  throw new JsonPathError(`[${inner}] in the path "${path}" is not an index, "*" or a quoted key`);
}

/** Every value the path leads to in `root`, in document order (several only through `*`). */
export function selectPath(root: unknown, steps: readonly PathStep[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('every' in step) {
        if (Array.isArray(value)) next.push(...value);
        else if (isRecord(value)) next.push(...Object.values(value));
      } else if ('index' in step) {
        if (Array.isArray(value)) {
          const item = value.at(step.index);
          if (item !== undefined) next.push(item);
        }
      } else if (isRecord(value) && Object.hasOwn(value, step.key)) {
        next.push(value[step.key]);
      }
    }
    current = next;
  }
  return current;
}

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
