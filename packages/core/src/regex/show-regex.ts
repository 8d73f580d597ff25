const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A regular expression as messages show it, `/^done$/m`, always on one line: a pattern written with
 * `"\n"` in JSON holds a real line break, which would split a one-line message in two. Control
 * characters are shown as the escapes that mean the same in a pattern.
 */
export function showRegex(pattern: string, flags?: string): string {
  return `/${escapeControls(pattern)}/${escapeControls(flags ?? '')}`;
}

function escapeControls(text: string): string {
  return text.replace(
    /[\p{Cc}\u2028\u2029]/gu,
    (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
