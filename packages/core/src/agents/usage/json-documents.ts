const MAX_FAILED_STARTS = 1000;

/**
 * The JSON documents (objects and arrays) in an agent's output, in order: each one starts a line
 * (after blanks) and runs to its matching bracket, so a pretty-printed document spanning many lines
 * is one document, and lines of text before, between or after them (banners, warnings) are skipped.
 * After `MAX_FAILED_STARTS` lines that looked like JSON and were not, the rest is not searched: an
 * agent cannot make the search quadratic.
 */
export function jsonDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  let index = 0;
  let failedStarts = 0;
  while (index < text.length && failedStarts < MAX_FAILED_STARTS) {
    const start = nextDocumentStart(text, index);
    if (start < 0) break;
    const end = matchingBracket(text, start);
    if (end < 0) {
      // Not closed: the document was cut (the agent was killed); whatever follows is text.
      index = lineEnd(text, start);
      failedStarts++;
      continue;
    }
    try {
      documents.push(JSON.parse(text.slice(start, end + 1)));
      index = end + 1;
    } catch {
      index = lineEnd(text, start);
      failedStarts++;
    }
  }
  return documents;
}

/** The index of the next `{` or `[` that is the first non-blank character of its line, from `from`. */
function nextDocumentStart(text: string, from: number): number {
  let index = from;
  let lineStart = from === 0 || text[from - 1] === '\n';
  while (index < text.length) {
    const char = text[index];
    if (char === '\n') lineStart = true;
    else if (lineStart && (char === '{' || char === '[')) return index;
    else if (char !== ' ' && char !== '\t' && char !== '\r') lineStart = false;
    index++;
  }
  return -1;
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline + 1;
}

/** The index of the bracket that closes the one at `start`, skipping strings; -1 when it never closes. */
function matchingBracket(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}
