import { mkdtempSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readProcessStat } from '../process/proc-stat.js';

// Every directory a harness process makes under the temp dir carries its owner in its name:
//   gz-bench-<pid>-<start time>-XXXXXX         a case area
//   gz-bench-cache-<pid>-<start time>-XXXXXX   the CLI's cache of one run
//   gz-bench-slots-<pid>-<start time>-XXXXXX   the socket of one run's concurrency limit
//   gz-bench-tools-<pid>-<start time>-XXXXXX   the FIFOs of one family case's tool server
//   gz-bench-build-<pid>-<start time>-XXXXXX   the scratch of one engine build of an environment
// The name exists from the first moment (mkdtemp creates the directory and its name at once), so a
// process killed at any point, even between mkdtemp and writing owner.json, leaves nothing that the
// next run's cleanStaleAreas cannot attribute to a dead owner and remove. An agent cannot rewrite it
// either: renaming its area moves it out of the place its harness removes anyway.

/** What a harness process keeps under the temp dir. */
export type OwnedDirKind = 'area' | 'cache' | 'slots' | 'tools' | 'build';

/** Who made a directory, and what it is, as its name says. */
export interface OwnedDirName {
  kind: OwnedDirKind;
  pid: number;
  /** As `OwnerRecord.startTime`: /proc/<pid>/stat field 22, or ms since the epoch without /proc. */
  startTime: number;
}

const PREFIXES: Record<OwnedDirKind, string> = {
  area: 'gz-bench-',
  cache: 'gz-bench-cache-',
  slots: 'gz-bench-slots-',
  tools: 'gz-bench-tools-',
  build: 'gz-bench-build-',
};
// mkdtemp's six characters are letters and digits; nothing looser, or a user's own directory
// that merely starts with gz-bench- could be taken for ours.
const OWNED_NAME = /^gz-bench-(?:(cache|slots|tools|build)-)?([1-9][0-9]{0,9})-([0-9]{1,20})-[A-Za-z0-9]{6}$/;

/** Creates `<parent>/<prefix><pid>-<start time>-XXXXXX` for this process; returns its real path. */
export async function createOwnedDir(parent: string, kind: OwnedDirKind): Promise<string> {
  const prefix = `${PREFIXES[kind]}${process.pid}-${await ownStartTime()}-`;
  // Real paths, so that symlink checks compare like with like (macOS's /var is a link to /private/var).
  // Synchronous (see case-area.ts): two calls on the temp dir, each faster than a thread-pool trip.
  return realpathSync.native(mkdtempSync(join(parent, prefix)));
}

/** The owner a directory name records, or undefined for any name `createOwnedDir` does not make. */
export function parseOwnedDirName(name: string): OwnedDirName | undefined {
  const match = OWNED_NAME.exec(name);
  if (match === null) return undefined;
  const pid = Number(match[2]);
  const startTime = Number(match[3]);
  if (!Number.isSafeInteger(pid) || !Number.isSafeInteger(startTime)) return undefined;
  return { kind: (match[1] as OwnedDirKind | undefined) ?? 'area', pid, startTime };
}

let startTime: Promise<number> | undefined;

/** This process's start time, as `OwnerRecord.startTime` records it; the same value on every call. */
export function ownStartTime(): Promise<number> {
  startTime ??= (async () => {
    const stat = process.platform === 'linux' ? await readProcessStat('self') : undefined;
    return stat?.startTime ?? Math.round(Date.now() - process.uptime() * 1000);
  })();
  return startTime;
}
