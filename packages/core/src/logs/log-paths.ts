import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';

// Suite file paths and case ids are the user's strings: `../../x`, `a/b`, ids in any script, ids of
// hundreds of characters. Each becomes one directory name that is safe on any file system and tells
// the string apart from every other.

/** Characters a slug keeps as they are; everything else becomes `_`. */
const SAFE_CHAR = /[A-Za-z0-9._-]/;
/** Characters of a slug kept from the name; with the hash, a slug stays far below NAME_MAX (255). */
export const SLUG_MAX_CHARS = 64;
const HASH_CHARS = 12;
const HASHED_SUFFIX = new RegExp(`-[0-9a-f]{${HASH_CHARS}}$`);

/**
 * One directory name for `name`, unique to it: the name itself when it is short, plain
 * (`[a-z0-9._-]`, no leading dot) and cannot be mistaken for a hashed slug; otherwise its plain
 * characters (others, and a leading dot, become `_`), cut to 64, then `-` and 12 hex digits of its
 * SHA-256. So `a/b`, `a_b` and `A_b` get names of their own, also on file systems that ignore case,
 * and no slug is `.`, `..` or hidden.
 */
export function logSlug(name: string): string {
  const plain =
    name.length > 0 &&
    name.length <= SLUG_MAX_CHARS &&
    /^[a-z0-9_-][a-z0-9._-]*$/.test(name) &&
    !HASHED_SUFFIX.test(name);
  if (plain) return name;
  const kept = Array.from(name.slice(0, SLUG_MAX_CHARS * 2), (char) => (SAFE_CHAR.test(char) ? char : '_'))
    .join('')
    .slice(0, SLUG_MAX_CHARS)
    // Never `.` or `..`, nor a hidden name.
    .replace(/^\./, '_');
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_CHARS);
  return `${kept}-${hash}`;
}

/** Where the logs of one case go, and how the report names that place. */
export interface CaseLogLocation {
  /** Absolute directory of the case's logs. */
  dir: string;
  /** The same directory as the report shows it: relative to the root when inside it (`/`-separated), else absolute. */
  display: string;
}

/** What places a case's logs. */
export interface CaseLogPlace {
  /** Absolute directory that holds every log of the run (`.gz-bench/logs` below the Vitest root). */
  logsDir: string;
  /** The Vitest root, against which suite files are named and paths are shown. */
  root: string;
  /** The suite file (absolute, or relative to `root`). */
  suiteFile: string;
  caseId: string;
  /**
   * Further levels below the case, each a user's string too (an agent's name, a trial): runs of the
   * same case that must not share a log.
   */
  run?: readonly string[];
}

/**
 * `<logsDir>/<suite file slug>/<case slug>[/<run slug>…]`: one directory per (suite file, case), and
 * per agent and trial when `run` names them. Nothing of the user's strings can lead out of `logsDir`.
 */
export function caseLogLocation(place: CaseLogPlace): CaseLogLocation {
  const file = relative(place.root, isAbsolute(place.suiteFile) ? place.suiteFile : join(place.root, place.suiteFile));
  const segments = [file.split(sep).join('/'), place.caseId, ...(place.run ?? [])].map(logSlug);
  const dir = join(place.logsDir, ...segments);
  return { dir, display: displayPath(place.root, dir) };
}

/** `path` as a report shows it: relative to `root` (with `/`) when inside it, else absolute. */
export function displayPath(root: string, path: string): string {
  const inside = relative(root, path);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return path;
  return inside.split(sep).join('/');
}
