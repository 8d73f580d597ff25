import { createLineIndex, type Location, stripBom } from './position.js';

export type { Location } from './position.js';

/** Where a case starts in the suite's JSON text (its `{`), where its `id` value is, and where each of its checks starts. */
export interface CaseLocation extends Location {
  /** The case's `id` value: the line people point at when they mean the case. */
  id?: Location;
  checks: Location[];
}

class Malformed extends Error {}

/**
 * Finds the `{` of each element of the top-level `cases` array, and of each element of its `checks`,
 * so test locations and source maps point into the JSON file. Lines are 1-based, columns 0-based
 * (source-map convention), counted without a leading BOM, which the loader strips too.
 *
 * A skimmer, not a parser: it assumes valid JSON and returns [] instead of throwing on anything else,
 * because a location is a convenience and validation reports the real error. As in JSON.parse, the
 * last of duplicate keys wins.
 */
export function locateCases(source: string): CaseLocation[] {
  const text = stripBom(source);
  const locationAt = createLineIndex(text);
  let i = 0;

  const skipWhitespace = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const expect = (char: string) => {
    skipWhitespace();
    if (text.charAt(i) !== char) throw new Malformed();
    i++;
  };
  /** Moves past the string token starting at `i`. */
  const skipString = () => {
    i++;
    while (i < text.length && text.charAt(i) !== '"') i += text.charAt(i) === '\\' ? 2 : 1;
    if (i >= text.length) throw new Malformed();
    i++;
  };
  /** Reads a key; decoding goes through JSON.parse so an escaped key such as `"\u0063ases"` counts. */
  const readString = (): string => {
    skipWhitespace();
    const start = i;
    if (text.charAt(i) !== '"') throw new Malformed();
    skipString();
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** Skips any value without recursion: only brackets outside strings change the depth. */
  const skipValue = () => {
    skipWhitespace();
    let depth = 0;
    do {
      if (i >= text.length) throw new Malformed();
      const char = text.charAt(i);
      if (char === '"') {
        skipString();
        continue;
      }
      if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') depth--;
      else if (depth === 0) {
        // A scalar at the top: run to the next delimiter.
        while (i < text.length && !',}] \t\n\r'.includes(text.charAt(i))) i++;
        return;
      }
      i++;
    } while (depth > 0);
  };
  /** Calls `onMember` with each key, positioned at its value; `onMember` must consume the value. */
  const eachMember = (onMember: (key: string) => void) => {
    expect('{');
    skipWhitespace();
    if (text.charAt(i) === '}') {
      i++;
      return;
    }
    for (;;) {
      const key = readString();
      expect(':');
      skipWhitespace();
      onMember(key);
      skipWhitespace();
      if (text.charAt(i) === '}') {
        i++;
        return;
      }
      expect(',');
    }
  };
  /** Calls `onElement` at the start of each element; `onElement` must consume the element. */
  const eachElement = (onElement: () => void) => {
    expect('[');
    skipWhitespace();
    if (text.charAt(i) === ']') {
      i++;
      return;
    }
    for (;;) {
      skipWhitespace();
      onElement();
      skipWhitespace();
      if (text.charAt(i) === ']') {
        i++;
        return;
      }
      expect(',');
    }
  };

  const readChecks = (): Location[] => {
    const checks: Location[] = [];
    eachElement(() => {
      checks.push(locationAt(i));
      skipValue();
    });
    return checks;
  };

  const readCase = (): CaseLocation => {
    const location: CaseLocation = { ...locationAt(i), checks: [] };
    if (text.charAt(i) !== '{') {
      skipValue();
      return location;
    }
    eachMember((key) => {
      if (key === 'id') {
        location.id = locationAt(i);
        skipValue();
      } else if (key === 'checks' && text.charAt(i) === '[') location.checks = readChecks();
      else if (key === 'checks') {
        location.checks = [];
        skipValue();
      } else skipValue();
    });
    return location;
  };

  try {
    let cases: CaseLocation[] = [];
    skipWhitespace();
    if (text.charAt(i) !== '{') return [];
    eachMember((key) => {
      if (key !== 'cases') return skipValue();
      if (text.charAt(i) !== '[') {
        cases = [];
        return skipValue();
      }
      const found: CaseLocation[] = [];
      eachElement(() => {
        found.push(readCase());
      });
      cases = found;
    });
    return cases;
  } catch {
    return [];
  }
}
