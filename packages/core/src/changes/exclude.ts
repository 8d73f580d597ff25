// Which workspace paths `changes.exclude` leaves out. Paths here are the walk's keys: the raw bytes
// of a relative path as a latin1 string (one character per byte, so no name is lost to UTF-8
// decoding), `/`-separated.

/** Whether a relative path (a walk key) is left out of the comparison. */
export type ExcludeMatcher = (key: string) => boolean;

/**
 * A matcher for gitignore-like patterns: one without a `/` (`node_modules`, `*.log`) matches a name
 * at any depth; one with a `/` (`dist/**`, `src/gen`) matches from the workspace root. `*` and `?`
 * stay within one name, `**` spans any number of them. A directory that matches is not entered.
 */
export function excludeMatcher(patterns: readonly string[]): ExcludeMatcher {
  const byName: RegExp[] = [];
  const byPath: RegExp[] = [];
  for (const raw of patterns) {
    // The walk's keys are bytes as latin1: the pattern, written in UTF-8, is compared the same way.
    const pattern = Buffer.from(raw.replace(/\/+$/, ''), 'utf8').toString('latin1');
    if (pattern === '') continue;
    if (pattern.includes('/')) byPath.push(globRegExp(pattern.replace(/^\/+/, '')));
    else byName.push(globRegExp(pattern));
  }
  if (byName.length === 0 && byPath.length === 0) return () => false;
  return (key) => {
    const name = key.slice(key.lastIndexOf('/') + 1);
    return byName.some((regexp) => regexp.test(name)) || byPath.some((regexp) => regexp.test(key));
  };
}

/** A glob as an anchored RegExp: `*` and `?` within one name, `**` across names. */
export function globRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '*' && pattern[index + 1] === '*') {
      // `**/` is any number of leading directories, none included; a final `**` is everything below.
      if (pattern[index + 2] === '/') {
        source += '(?:[^/]*/)*';
        index += 2;
      } else {
        source += '.*';
        index += 1;
      }
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}
