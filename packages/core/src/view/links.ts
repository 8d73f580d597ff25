import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * A link from the page to a file a report row names: the path relative to the page's directory,
 * each segment percent-encoded. It is only ever a relative URL built here, so no string of a row
 * (`javascript:alert(1)`, `//host/x`, `"><img …>`) can become a scheme, a host or markup.
 */
export function relativeLink(pageDir: string, root: string, path: string): string | undefined {
  if (path === '' || path.includes('\0')) return undefined;
  const target = isAbsolute(path) ? path : resolve(root, path);
  const parts = relative(pageDir, target).split(sep);
  if (parts.length === 0 || parts.every((part) => part === '')) return undefined;
  return parts.map((part) => encodeURIComponent(wellFormed(part))).join('/');
}

/** Lone surrogates, which `encodeURIComponent` throws on, become U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
