import { allowEnvItems, allowEnvMatches, showAllowEnvItem } from './allow-env.js';

/** `allowEnv` entries and where they were written, e.g. `allowEnv of suite "x"` or `--allow-env`. */
export interface AllowEnvSource {
  entries: readonly string[];
  origin: string;
}

// More places than this for one name would make a line nobody reads.
const MAX_ORIGINS = 3;

/**
 * One line for each name of the sources that `env` does not set, and each pattern that matches none of
 * its variables, with where it was asked for: said before a run, since a missing API key otherwise
 * shows up only as an agent that fails to log in. Never the values.
 */
export function unsetAllowEnvWarnings(sources: readonly AllowEnvSource[], env: NodeJS.ProcessEnv): string[] {
  const setNames = Object.keys(env).filter((name) => env[name] !== undefined);
  // A Set: a suite of 10,000 cases may ask for the same name in each.
  const unset = new Map<string, { pattern: boolean; origins: Set<string> }>();
  for (const { entries, origin } of sources) {
    for (const item of allowEnvItems(entries)) {
      const isSet =
        'name' in item ? env[item.name] !== undefined : setNames.some((name) => allowEnvMatches(item, name));
      if (isSet) continue;
      const shown = showAllowEnvItem(item);
      const entry = unset.get(shown) ?? { pattern: 'prefix' in item, origins: new Set<string>() };
      entry.origins.add(origin);
      unset.set(shown, entry);
    }
  }
  return [...unset].map(([shown, { pattern, origins }]) => {
    const more = origins.size - MAX_ORIGINS;
    const where = [...[...origins].slice(0, MAX_ORIGINS), ...(more > 0 ? [`${more} more`] : [])].join(', ');
    return pattern
      ? `${shown} (${where}) matches no variable that is set; the agent will receive none`
      : `${shown} (${where}) is not set; the agent will not receive it`;
  });
}
