/** A place in a text: 1-based `line`, 0-based `column` in UTF-16 code units (the source-map convention). */
export interface Location {
  line: number;
  column: number;
}

/**
 * Returns a function from string offset to Location. Line starts are computed once so that locating
 * every case of a large suite stays linear. `\r\n`, `\n` and a lone `\r` each end a line, as in editors.
 */
export function createLineIndex(text: string): (offset: number) => Location {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x0a || (char === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) lineStarts.push(i + 1);
  }
  return (offset) => {
    // Binary search for the last line start <= offset.
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) };
  };
}

/** Drops a leading UTF-8 byte order mark, which JSON.parse rejects and editors hide. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
