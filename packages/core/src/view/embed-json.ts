/**
 * The one place the viewer turns data into HTML: JSON for a `<script type="application/json">` block.
 * `<`, `>` and `&` are escaped so no `</script>` or `<!--` can end or bend the block; U+2028 and U+2029
 * so the text is also valid JavaScript. `JSON.stringify` already writes lone surrogates as `\udxxx`
 * escapes, so the page stays well-formed UTF-8 whatever the agent wrote. The page's script reads the
 * block with `JSON.parse(element.textContent)` and puts every string into the DOM as text.
 */
export function embedJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, escapeChar);
}

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
