/** A source map v3 object, as Vite's `load` hook accepts it. */
export interface SourceMap {
  version: 3;
  file: string;
  sources: string[];
  sourcesContent: string[];
  names: string[];
  mappings: string;
}

/** A generated line that points at a position of the source (1-based line, 0-based column). */
export interface LineMapping {
  generatedLine: number;
  sourceLine: number;
  sourceColumn: number;
}

/**
 * Maps the start of some generated lines to positions in one source file, so that Vitest's test
 * locations and error frames point into the suite JSON rather than into generated code.
 */
export function lineSourceMap(file: string, source: string, lines: LineMapping[]): SourceMap {
  const byLine = new Map(lines.map((line) => [line.generatedLine, line]));
  const lastLine = Math.max(0, ...lines.map((line) => line.generatedLine));
  const segments: string[] = [];
  let previousLine = 0;
  let previousColumn = 0;
  for (let generated = 1; generated <= lastLine; generated++) {
    const mapping = byLine.get(generated);
    if (!mapping) {
      segments.push('');
      continue;
    }
    const sourceLine = mapping.sourceLine - 1;
    segments.push(vlq([0, 0, sourceLine - previousLine, mapping.sourceColumn - previousColumn]));
    previousLine = sourceLine;
    previousColumn = mapping.sourceColumn;
  }
  return { version: 3, file, sources: [file], sourcesContent: [source], names: [], mappings: segments.join(';') };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function vlq(values: number[]): string {
  let out = '';
  for (const value of values) {
    let rest = value < 0 ? (-value << 1) | 1 : value << 1;
    do {
      let digit = rest & 31;
      rest >>>= 5;
      if (rest > 0) digit |= 32;
      out += BASE64[digit];
    } while (rest > 0);
  }
  return out;
}
