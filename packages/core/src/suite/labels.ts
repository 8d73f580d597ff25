// Tags and metadata of cases: plain functions apart from the zod schema, so that the plugin and the
// runtime read them without loading it.

/** A JSON value, as `meta` holds them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Free-form metadata of a case or suite (difficulty, category, source…), carried into the report. */
export type CaseMeta = Record<string, JsonValue>;

/**
 * What a tag may be: one word of Vitest's `--tags-filter` language, which splits on spaces, parentheses,
 * `!`, `&` and `|`, and reads `*` as a wildcard.
 */
export const TAG_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:/+=@-]*$';
const TAG = new RegExp(TAG_PATTERN);

/** Words `--tags-filter` reads as operators, in any case. */
const OPERATOR_WORDS = new Set(['and', 'or', 'not']);

/** Why `name` cannot be a tag, or undefined when it can. */
export function tagProblem(name: string): string | undefined {
  if (OPERATOR_WORDS.has(name.toLowerCase())) {
    return `tag ${JSON.stringify(name)} is an operator of --tags-filter (and, or, not); choose another name`;
  }
  if (!TAG.test(name)) {
    return `tag ${JSON.stringify(name)} must start with a letter or digit and hold only letters, digits and _ . : / + = @ -`;
  }
  return undefined;
}

interface Labelled {
  tags?: string[] | undefined;
  meta?: CaseMeta | undefined;
}

/** A case's tags: the suite's, then its own, each once. */
export function caseTags(suite: Labelled, testCase: Labelled): string[] {
  return [...new Set([...(suite.tags ?? []), ...(testCase.tags ?? [])])];
}

/** A case's metadata: the suite's, with the case's own winning key by key; undefined when neither has any. */
export function caseMeta(suite: Labelled, testCase: Labelled): CaseMeta | undefined {
  if (suite.meta === undefined && testCase.meta === undefined) return undefined;
  return { ...suite.meta, ...testCase.meta };
}

/** Every tag a suite's cases carry, in first-seen order. */
export function suiteTagNames(suite: Labelled & { cases: readonly Labelled[] }): string[] {
  return [...new Set([...(suite.tags ?? []), ...suite.cases.flatMap((testCase) => testCase.tags ?? [])])];
}
