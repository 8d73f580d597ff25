import { resolve } from 'node:path';
import { loadSuite, suiteSecretPaths, suiteTagNames } from '@gz-bench/core';
import { glob } from 'tinyglobby';

/** How a tag the plugin defines describes itself in `vitest --list-tags`. */
export const TAG_DESCRIPTION = 'gz-bench case tag';

/** A Vitest tag definition, as `test.tags` holds them (4.1 and 5). */
export interface TagDefinition {
  name: string;
  description?: string;
}

// Vitest fails collection on a tag it has no definition of (even with --no-strict-tags), and users
// should not have to repeat their suites' tags in their config: the plugin defines them.

/** What the plugin reads of the suites before Vitest collects them. */
export interface SuiteScan {
  /** Every tag the suites carry. */
  tags: string[];
  /** The number of cases of each suite file (families expanded); 0 for a suite that does not load. */
  casesPerFile: number[];
  /** Each suite file that loads (absolute) with its case ids, in the order of `casesPerFile`. */
  suites: Array<{ file: string; ids: string[] }>;
  /** Every verifier and solution path of the suites (absolute), which every case's sandbox hides. */
  secretPaths: string[];
}

const scans = new Map<string, Promise<SuiteScan>>();

/**
 * The suites that `include` matches under `root`, read once per root and globs. A suite that does
 * not load carries no tag and no case: its test module reports why it does not load.
 */
export function scanSuites(root: string, include: readonly string[], exclude: readonly string[]): Promise<SuiteScan> {
  const key = JSON.stringify([resolve(root), include, exclude]);
  let scan = scans.get(key);
  if (scan === undefined) {
    scan = readSuites(resolve(root), include, exclude);
    scans.set(key, scan);
  }
  return scan;
}

async function readSuites(root: string, include: readonly string[], exclude: readonly string[]): Promise<SuiteScan> {
  const files = await glob([...include], {
    cwd: root,
    ignore: [...exclude],
    dot: true,
    onlyFiles: true,
    absolute: true,
  });
  const names = new Set<string>();
  const casesPerFile: number[] = [];
  const suites: SuiteScan['suites'] = [];
  const secretPaths = new Set<string>();
  for (const file of files.sort()) {
    try {
      const { suite } = await loadSuite(file);
      for (const name of suiteTagNames(suite)) names.add(name);
      casesPerFile.push(suite.cases.length);
      suites.push({ file, ids: suite.cases.map((testCase) => testCase.id) });
      for (const path of suiteSecretPaths(suite, file)) secretPaths.add(path);
    } catch {
      // An invalid suite: its own module fails with the reason.
      casesPerFile.push(0);
    }
  }
  return { tags: [...names], casesPerFile, suites, secretPaths: [...secretPaths] };
}

/** Definitions of the tags in `names` that `declared` lacks, in the order of `names`. */
export function missingTags(names: readonly string[], declared: readonly TagDefinition[] | undefined): TagDefinition[] {
  const known = new Set((declared ?? []).map((definition) => definition.name));
  return names.filter((name) => !known.has(name)).map((name) => ({ name, description: TAG_DESCRIPTION }));
}
