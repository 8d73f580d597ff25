import { JsonSkimmer } from './json-skimmer.js';
import { stripBom } from './position.js';

/**
 * The text of the value at `path` in JSON `source`, exactly as written (`1e400`), or undefined when
 * there is none. Messages quote it where the parsed value lost what the author wrote: JSON.parse turns
 * `1e400` into Infinity and `1e-400` into 0. As in JSON.parse, the last of duplicate keys wins.
 */
export function valueTextAt(source: string, path: readonly PropertyKey[]): string | undefined {
  const json = new JsonSkimmer(stripBom(source));
  try {
    json.skipWhitespace();
    for (const key of path) {
      let start: number | undefined;
      if (typeof key === 'number' && json.peek() === '[') {
        let index = 0;
        json.eachElement(() => {
          if (index++ === key) start = json.offset;
          json.skipValue();
        });
      } else if (typeof key === 'string' && json.peek() === '{') {
        json.eachMember((name) => {
          if (name === key) start = json.offset;
          json.skipValue();
        });
      }
      if (start === undefined) return undefined;
      json.offset = start;
    }
    const start = json.offset;
    json.skipValue();
    return json.text.slice(start, json.offset);
  } catch {
    return undefined;
  }
}
