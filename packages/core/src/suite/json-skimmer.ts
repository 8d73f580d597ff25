/** Thrown by a JsonSkimmer on text that is not what it expected; callers turn it into "not found". */
export class Malformed extends Error {}

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
    while (this.offset < this.text.length && ' \t\n\r'.includes(this.peek())) this.offset++;
  }

  /** Moves past `char`, after any whitespace. */
  expect(char: string): void {
    this.skipWhitespace();
    if (this.peek() !== char) throw new Malformed();
    this.offset++;
  }

  /** Moves past the string token at the offset. */
  skipString(): void {
    this.offset++;
    while (this.offset < this.text.length && this.peek() !== '"') this.offset += this.peek() === '\\' ? 2 : 1;
    if (this.offset >= this.text.length) throw new Malformed();
    this.offset++;
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
    let depth = 0;
    do {
      if (this.offset >= this.text.length) throw new Malformed();
      const char = this.peek();
      if (char === '"') {
        this.skipString();
        continue;
      }
      if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') depth--;
      else if (depth === 0) {
        // A scalar at the top: run to the next delimiter.
        while (this.offset < this.text.length && !',}] \t\n\r'.includes(this.peek())) this.offset++;
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
