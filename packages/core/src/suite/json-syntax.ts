/** Where and why a text is not JSON: `offset` into the text and a reason in plain words. */
export interface JsonSyntaxProblem {
  offset: number;
  reason: string;
}

class Stop {
  constructor(readonly problem: JsonSyntaxProblem) {}
}

/**
 * Finds the first JSON syntax error in `text`, or undefined if it is valid JSON (RFC 8259).
 *
 * V8's JSON.parse messages differ between Node versions and only some carry a position, so the loader
 * uses this scanner for the line, column and wording of "invalid JSON" errors. Recursive descent: a
 * suite nested deeply enough to overflow the stack makes this return undefined, and the caller falls
 * back to V8's message.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  let i = 0;

  const fail = (reason: string, at = i): never => {
    throw new Stop({ offset: at, reason });
  };
  const found = () => (i >= text.length ? 'end of input' : JSON.stringify(text.charAt(i)));
  const expected = (what: string): never => fail(`expected ${what}, found ${found()}`);
  const skipWhitespace = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };

  const string = () => {
    const start = i;
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string', start);
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return;
      }
      if (code < 0x20) fail('control character in string; write it as an escape such as \\n');
      if (code === 0x5c) {
        const escaped = text.charAt(i + 1);
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape; expected 4 hex digits');
          i += 6;
        } else if (escaped !== '' && '"\\/bfnrt'.includes(escaped)) {
          i += 2;
        } else {
          fail(`invalid escape "\\${escaped}"`);
        }
      } else {
        i++;
      }
    }
  };

  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const number = () => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (match === null) fail('invalid number');
    const end = i + (match?.[0].length ?? 0);
    // "01", "1.", "1e" and "-" all stop the regex early on a character that continues the number.
    if (/[\d.eE+-]/.test(text.charAt(end))) fail('invalid number', i);
    i = end;
  };

  const value = () => {
    skipWhitespace();
    const char = text.charAt(i);
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') return string();
    if (char === '-' || (char >= '0' && char <= '9')) return number();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    if (char === "'") fail('strings must use double quotes');
    expected('a value');
  };

  const object = () => {
    i++;
    skipWhitespace();
    if (text.charAt(i) === '}') {
      i++;
      return;
    }
    for (;;) {
      skipWhitespace();
      if (text.charAt(i) !== '"') expected('a property name in double quotes');
      string();
      skipWhitespace();
      if (text.charAt(i) !== ':') expected('":"');
      i++;
      value();
      skipWhitespace();
      if (text.charAt(i) === '}') {
        i++;
        return;
      }
      if (text.charAt(i) !== ',') expected('"," or "}"');
      i++;
    }
  };

  const array = () => {
    i++;
    skipWhitespace();
    if (text.charAt(i) === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      skipWhitespace();
      if (text.charAt(i) === ']') {
        i++;
        return;
      }
      if (text.charAt(i) !== ',') expected('"," or "]"');
      i++;
    }
  };

  try {
    value();
    skipWhitespace();
    if (i < text.length) expected('end of input');
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return error.problem;
    return undefined; // stack overflow on absurd nesting: let the caller use V8's report
  }
}
