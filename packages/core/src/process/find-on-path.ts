import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable `name` in the directories of `searchPath` (a PATH value), or undefined. */
export function findOnPath(name: string, searchPath: string): string | undefined {
  for (const directory of searchPath.split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
