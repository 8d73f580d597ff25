import { mkdir, open, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { CaseLogLocation } from './log-paths.js';

/** The log of one command of a case: `agent`, `setup-<n>` or `check-<n>` (1-based, as in the case's lists). */
export type CommandLogName = 'agent' | `setup-${number}` | `check-${number}`;

/** A file of a trial's own beside its logs, written whole once the agent has ended. */
export type CaseLogFile = 'trajectory.json' | 'changes.diff';

/** The files a case's logs are: a run replaces these, and only these, in its case's directory. */
const OWN_LOG_FILE = /^(?:(?:agent|setup-\d+|check-\d+)\.log|trajectory\.json|changes\.diff)$/;

// Enough for the disk to take writes in large pieces; a command's pipes are paused beyond it, so this
// is all the memory a log costs, whatever the command prints.
const LOG_HIGH_WATER_MARK = 256 * 1024;

/** A log file opened for one command, and how the report names it. */
export interface OpenedLog {
  stream: Writable;
  /** The file as the report shows it (see `CaseLogLocation.display`). */
  display: string;
}

/**
 * The log directory of one case. The directory and the logs in it are the harness's own: made outside
 * the case area (so they outlive its removal, and in the sandbox the agent cannot write them), and
 * replaced by each run of the case, which never removes anything else there.
 */
export class CaseLogs {
  private constructor(readonly location: CaseLogLocation) {}

  /**
   * Makes the case's log directory and removes the logs an earlier run of the case left there (a run
   * with fewer setup commands must not leave the old `setup-3.log` to be read as its own). Throws
   * the file system's error when the directory cannot be made or cleared.
   */
  static async prepare(location: CaseLogLocation): Promise<CaseLogs> {
    await mkdir(location.dir, { recursive: true });
    const names = await readdir(location.dir);
    await Promise.all(
      names.filter((name) => OWN_LOG_FILE.test(name)).map((name) => rm(join(location.dir, name), { force: true })),
    );
    return new CaseLogs(location);
  }

  /**
   * Opens `<name>.log` for a command, as a new file: whatever is at its path is removed first (a link
   * planted there is removed, never written through), and an entry that appears there meanwhile makes
   * the open fail instead of being written to. Throws the file system's error when it cannot be opened.
   */
  async open(name: CommandLogName): Promise<OpenedLog> {
    const file = `${name}.log`;
    const path = join(this.location.dir, file);
    await rm(path, { force: true });
    const handle = await open(path, 'wx', 0o644);
    const stream = handle.createWriteStream({ highWaterMark: LOG_HIGH_WATER_MARK });
    return { stream, display: `${this.location.display}/${file}` };
  }

  /**
   * Writes one of the trial's own files (`trajectory.json`, `changes.diff`) as a new file, as `open`
   * does a log, and returns how the report names it. Throws the file system's error when it cannot be written.
   */
  async writeFile(name: CaseLogFile, data: string | Uint8Array): Promise<string> {
    const path = join(this.location.dir, name);
    await rm(path, { force: true });
    await writeFile(path, data, { flag: 'wx', mode: 0o644 });
    return `${this.location.display}/${name}`;
  }
}
