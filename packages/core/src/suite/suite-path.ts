import { isAbsolute, resolve } from 'node:path';

/** A path a suite names (a fixture, a starting file, an image), relative to the suite file's directory. */
export function suitePath(path: string, suiteDir: string | undefined): string {
  return isAbsolute(path) ? path : resolve(suiteDir ?? process.cwd(), path);
}
