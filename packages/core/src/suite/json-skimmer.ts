/** Thrown by a JsonSkimmer on text that is not what it expected; callers turn it into "not found". */
export class Malformed extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** JSON's whitespace: space, tab, line feed, carriage return. */
function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** What ends a number, `true`, `false` or `null`: a delimiter or whitespace. */
function endsScalar(code: number): boolean {
  return code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isWhitespace(code);
}

/**
 * Walks JSON text that already parsed, to find where things are in it; it validates nothing, decodes
 * only keys, and never recurses, so a deeply nested value cannot overflow the stack. `offset` is the
 * position in `text`, moved forward by each step.
 */
export class JsonSkimmer {
  offset = 0;

  constructor(readonly text: string) {}

  /** The character at the offset, or '' at the end. */
  peek(): string {
    return this.text.charAt(this.offset);
  }

  skipWhitespace(): void {
    while (this.offset < this.text.length && isWhitespace(this.text.charCodeAt(this.offset))) this.offset++;
  }

  /** Moves past `char`, after any whitespace. */
  expect(char: string): void {
    this.skipWhitespace();
    if (this.peek() !== char) throw new Malformed();
    this.offset++;
  }

  /** Moves past the string token at the offset. */
  skipString(): void {
    const { text } = this;
    let offset = this.offset + 1;
    // Character codes, not one-character strings: a large suite is millions of characters.
    for (let code = text.charCodeAt(offset); offset < text.length && code !== QUOTE; code = text.charCodeAt(offset)) {
      offset += code === BACKSLASH ? 2 : 1;
    }
    if (offset >= text.length) throw new Malformed();
    this.offset = offset + 1;
  }

  /** Reads a key; decoding goes through JSON.parse so an escaped key such as `"\u0063ases"` counts. */
  readString(): string {
    this.skipWhitespace();
    const start = this.offset;
    if (this.peek() !== '"') throw new Malformed();
    this.skipString();
    return JSON.parse(this.text.slice(start, this.offset)) as string;
  }

  /** Skips any value without recursion: only brackets outside strings change the depth. */
  skipValue(): void {
    this.skipWhitespace();
    const { text } = this;
    let depth = 0;
    do {
      if (this.offset >= text.length) throw new Malformed();
      const code = text.charCodeAt(this.offset);
      if (code === QUOTE) {
        this.skipString();
        continue;
      }
      if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
      else if (depth === 0) {
        // A scalar at the top: run to the next delimiter.
        while (this.offset < text.length && !endsScalar(text.charCodeAt(this.offset))) this.offset++;
        return;
      }
      this.offset++;
    } while (depth > 0);
  }

  /** Calls `onMember` with each key, positioned at its value; `onMember` must consume the value. */
  eachMember(onMember: (key: string) => void): void {
    this.expect('{');
    this.skipWhitespace();
    if (this.peek() === '}') {
      this.offset++;
      return;
    }
    for (;;) {
      const key = this.readString();
      this.expect(':');
      this.skipWhitespace();
      onMember(key);
      this.skipWhitespace();
      if (this.peek() === '}') {
        this.offset++;
        return;
      }
      this.expect(',');
    }
  }

  /** Calls `onElement` at the start of each element; `onElement` must consume the element. */
  eachElement(onElement: () => void): void {
    this.expect('[');
    this.skipWhitespace();
    if (this.peek() === ']') {
      this.offset++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      onElement();
      this.skipWhitespace();
      if (this.peek() === ']') {
        this.offset++;
        return;
      }
      this.expect(',');
    }
  }
}
