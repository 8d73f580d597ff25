import type { Plugin } from 'vitest/config';

// Taken from the hook's own type, so the declarations need no import of `vite`, which this package does not depend on.
type ResolvedConfig = Parameters<Extract<NonNullable<Plugin['configResolved']>, (...args: never[]) => unknown>>[0];

type TransformHook = (this: unknown, code: string, id: string, ...rest: unknown[]) => unknown;

/**
 * Vite 6 and 7 run their `vite:json` transform on every `.json` id, and it would try to parse the
 * JavaScript that gz-bench serves for a suite. Make it step aside for suite files. (Vite 8 decides by
 * the `moduleType` that the load hook returns, and needs none of this.)
 */
export function skipViteJsonFor(config: ResolvedConfig, isSuite: (id: string) => boolean): void {
  const json = config.plugins.find((plugin) => plugin.name === 'vite:json') as Plugin | undefined;
  const transform = json?.transform as TransformHook | { handler: TransformHook } | undefined;
  if (!json || !transform) return;
  const wrap = (original: TransformHook): TransformHook =>
    function (this: unknown, code, id, ...rest) {
      return isSuite(id) ? null : original.call(this, code, id, ...rest);
    };
  if (typeof transform === 'function') {
    json.transform = wrap(transform) as Plugin['transform'];
  } else {
    json.transform = { ...transform, handler: wrap(transform.handler) } as Plugin['transform'];
  }
}
