import { JsonSkimmer } from './json-skimmer.js';
import { createLineIndex, type Location, stripBom } from './position.js';

export type { Location } from './position.js';

/** Where a case starts in the suite's JSON text (its `{`), where its `id` value is, and where each of its checks starts. */
export interface CaseLocation extends Location {
  /** The case's `id` value: the line people point at when they mean the case. */
  id?: Location;
  checks: Location[];
}

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
  const json = new JsonSkimmer(text);

  const readChecks = (): Location[] => {
    const checks: Location[] = [];
    json.eachElement(() => {
      checks.push(locationAt(json.offset));
      json.skipValue();
    });
    return checks;
  };

  const readCase = (): CaseLocation => {
    const location: CaseLocation = { ...locationAt(json.offset), checks: [] };
    if (json.peek() !== '{') {
      json.skipValue();
      return location;
    }
    json.eachMember((key) => {
      if (key === 'id') {
        location.id = locationAt(json.offset);
        json.skipValue();
      } else if (key === 'checks' && json.peek() === '[') location.checks = readChecks();
      else if (key === 'checks') {
        location.checks = [];
        json.skipValue();
      } else json.skipValue();
    });
    return location;
  };

  try {
    let cases: CaseLocation[] = [];
    json.skipWhitespace();
    if (json.peek() !== '{') return [];
    json.eachMember((key) => {
      if (key !== 'cases') return json.skipValue();
      if (json.peek() !== '[') {
        cases = [];
        return json.skipValue();
      }
      const found: CaseLocation[] = [];
      json.eachElement(() => {
        found.push(readCase());
      });
      cases = found;
    });
    return cases;
  } catch {
    return [];
  }
}
