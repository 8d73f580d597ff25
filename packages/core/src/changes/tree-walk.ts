import { lstatSync, readdirSync, type Stats } from 'node:fs';
import type { ExcludeMatcher } from './exclude.js';

// One walk of a workspace, shared by the snapshot after setup and the comparison after the agent.
// It differs from the fixture copy's walk (workspace/copy-fixture.ts), which is fused with copying
// and runs lanes of asynchronous copies, and from integrity's compare-tree.ts, which walks two trees
// along the fixture's classification: this one reads names as bytes (the agent may write names that
// are not UTF-8, which string names would lose), leaves out excluded trees without entering them,
// never follows a link, and never stops at an entry it cannot read.

/** What a walked entry is; `special` is a FIFO, socket or device, which is never opened. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'special';

/** One entry of the walk. */
export interface WalkedEntry {
  /** The relative path's bytes as a latin1 string, `/`-separated: lossless for any name. */
  key: string;
  /** The absolute path, as bytes. */
  path: Buffer;
  stats: Stats;
  kind: EntryKind;
}

/** An entry of the tree the walk could not read: its `key`, and the error's code. */
export interface WalkProblem {
  key: string;
  code: string;
}

/** What a walk met besides its entries. */
export interface WalkOutcome {
  /** Directories that could not be listed (their entries were not seen) and entries that could not be read. */
  problems: WalkProblem[];
  /** Set when the walk stopped at `maxEntries`: entries beyond were not seen. */
  stopped?: true;
}

/** How to walk. */
export interface WalkOptions {
  exclude: ExcludeMatcher;
  /** The walk stops after this many entries (an agent can make millions of files). */
  maxEntries: number;
  /** Called for every entry below the root, directories included, in no set order. */
  visit: (entry: WalkedEntry) => void;
}

/**
 * Runs of synchronous work between yields to the event loop. The walk's `lstat` and `readdir` take
 * microseconds each, less than the trip through libuv's thread pool that an asynchronous call makes
 * (see copy-fixture.ts); yielding this often keeps the other cases of the worker (their pipes and
 * timers) moving while a large tree is walked.
 */
export const SLICE_MS = 8;

/** Walks the tree below `root` (a real directory), depth first, calling `visit` on each entry. */
export async function walkTree(root: string, options: WalkOptions): Promise<WalkOutcome> {
  const outcome: WalkOutcome = { problems: [] };
  const rootPath = Buffer.from(root);
  const pending: string[] = [''];
  let seen = 0;
  let sliceStarted = performance.now();
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    let names: Buffer[];
    try {
      names = readdirSync(pathOf(rootPath, directory), { encoding: 'buffer' });
    } catch (error) {
      outcome.problems.push({ key: directory, code: errorCode(error) });
      continue;
    }
    for (const name of names) {
      const key = directory === '' ? name.toString('latin1') : `${directory}/${name.toString('latin1')}`;
      if (options.exclude(key)) continue;
      if (seen >= options.maxEntries) {
        outcome.stopped = true;
        return outcome;
      }
      seen += 1;
      const path = pathOf(rootPath, key);
      let stats: Stats;
      try {
        stats = lstatSync(path);
      } catch (error) {
        outcome.problems.push({ key, code: errorCode(error) });
        continue;
      }
      const kind = kindOf(stats);
      options.visit({ key, path, stats, kind });
      if (kind === 'directory') pending.push(key);
      if (performance.now() - sliceStarted > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
  }
  return outcome;
}

/** The absolute path of a walk key below `root`, as bytes. */
export function pathOf(root: Buffer, key: string): Buffer {
  return key === '' ? root : Buffer.concat([root, SLASH, Buffer.from(key, 'latin1')]);
}

const SLASH = Buffer.from('/');

/** What an `lstat` says an entry is. */
export function kindOf(stats: Stats): EntryKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  return 'special';
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}
