import { ENV_NAME_PATTERN, isOwnedEnvName, ownedEnvReason, ownedPrefixReason } from './env-names.js';

// `allowEnv` entries, wherever they are written (suite, case, agent, plugin option, GZ_BENCH_ALLOW_ENV,
// --allow-env), name variables of the harness to pass on: one name (`OPENAI_API_KEY`), a list
// (`OPENAI_API_KEY,GH_TOKEN`), or a prefix pattern (`ANTHROPIC_*`, the `*` last and only there).

/**
 * What an `allowEnv` entry looks like, as a JSON Schema pattern for editors: names and `PREFIX*`
 * patterns, separated by commas. The names gz-bench owns are refused by `allowEnvProblem` alone.
 */
export const ALLOW_ENV_ENTRY_PATTERN = '^\\s*[A-Za-z_][A-Za-z0-9_]*\\*?\\s*(,\\s*[A-Za-z_][A-Za-z0-9_]*\\*?\\s*)*$';

/** One item of an `allowEnv` entry: a variable by its exact name, or every variable with a prefix. */
export type AllowEnvItem = { name: string } | { prefix: string };

/** An item as it was written: `NAME` or `PREFIX*`. */
export function showAllowEnvItem(item: AllowEnvItem): string {
  return 'name' in item ? item.name : `${item.prefix}*`;
}

/** The trimmed parts of an entry, split at its commas. */
function partsOf(entry: string): string[] {
  return entry.split(',').map((part) => part.trim());
}

/** Why `part` is no name and no pattern, or undefined when it is one. */
function partProblem(part: string, entry: string): string | undefined {
  if (part === '') {
    return entry.trim() === '' ? 'must name a variable' : `${JSON.stringify(entry)} has an empty name between commas`;
  }
  const star = part.indexOf('*');
  if (star === -1) {
    if (!ENV_NAME_PATTERN.test(part)) return `${JSON.stringify(part)} is not an environment variable name`;
    const owned = ownedEnvReason(part);
    return owned === undefined ? undefined : `${owned}, so it cannot be passed through`;
  }
  if (star !== part.length - 1) {
    return `${JSON.stringify(part)}: a pattern has one *, at its end (PREFIX_*)`;
  }
  const prefix = part.slice(0, -1);
  if (prefix === '') return `"*" would pass the whole environment; name a prefix (PREFIX_*)`;
  if (!ENV_NAME_PATTERN.test(prefix)) {
    return `${JSON.stringify(part)}: the part before the * is not the start of an environment variable name`;
  }
  const owned = ownedPrefixReason(prefix);
  return owned === undefined ? undefined : `${owned}, so it cannot be passed through`;
}

/** Why an `allowEnv` entry cannot be used, in words for its author, or undefined when it can. */
export function allowEnvProblem(entry: string): string | undefined {
  for (const part of partsOf(entry)) {
    const problem = partProblem(part, entry);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * The items of `allowEnv` entries. An entry that `allowEnvProblem` refuses gives none: every place
 * that accepts entries validates them first, with its own words for the error.
 */
export function allowEnvItems(entries: readonly string[]): AllowEnvItem[] {
  const items: AllowEnvItem[] = [];
  for (const entry of entries) {
    if (allowEnvProblem(entry) !== undefined) continue;
    for (const part of partsOf(entry)) items.push(part.endsWith('*') ? { prefix: part.slice(0, -1) } : { name: part });
  }
  return items;
}

/** Whether `item` matches the variable `name`: exactly, or by prefix. Owned names never match. */
export function allowEnvMatches(item: AllowEnvItem, name: string): boolean {
  const matches = 'name' in item ? item.name === name : name.startsWith(item.prefix);
  return matches && !isOwnedEnvName(name);
}

/** The variables of `source` (set, an empty value included) that the entries let through, each once. */
export function allowedEnvNames(entries: readonly string[], source: NodeJS.ProcessEnv): string[] {
  const items = allowEnvItems(entries);
  if (items.length === 0) return [];
  const names: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && items.some((item) => allowEnvMatches(item, name))) names.push(name);
  }
  return names;
}
