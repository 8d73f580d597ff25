import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryAnchor, needsAnchor } from './directory-anchor.js';

/** Default number of directory entries one `DiskUsageScan.advance()` call looks at. */
export const DEFAULT_ENTRIES_PER_STEP = 20_000;

// lstat calls in flight at once: enough to keep the thread pool busy, few enough not to starve
// other fs work in the harness (libuv has 4 threads by default).
const LSTAT_BATCH = 32;

/** What a finished or stopped measurement of a tree found. */
export interface DiskUsage {
  /** Sum of the sizes of the regular files seen (hard-linked files counted once). */
  bytes: number;
  /** Directory entries looked at. */
  entries: number;
  /** False when the walk stopped early (over `stopAboveBytes`), so `bytes` is a lower bound. */
  complete: boolean;
}

/** A path waiting to be looked at, and the open directory it goes through when the tree is deep. */
interface Queued {
  path: string;
  anchor: DirectoryAnchor | undefined;
}

/**
 * A resumable walk that adds up the sizes of the regular files under `root`, at any depth (see
 * directory-anchor.ts). Symlinks are never followed and count nothing; directories count nothing
 * themselves. `advance()` does a bounded amount of work and can be called again to continue, so a
 * poller never blocks on a huge tree. The tree may change during the walk: files that vanish are
 * skipped, the sum is an estimate. Call `close()` on a walk abandoned before it is done.
 */
export class DiskUsageScan {
  readonly root: string;
  #bytes = 0;
  #entries = 0;
  #started = false;
  #done = false;
  readonly #directories: Queued[] = [];
  // Regular files read from a directory but not yet measured.
  readonly #files: Queued[] = [];
  // Hard links share one inode: only the first path seen adds its size.
  readonly #linkedInodes = new Set<string>();
  readonly #anchors = new Set<DirectoryAnchor>();

  constructor(root: string) {
    this.root = root;
  }

  /** Sum of file sizes seen so far in this walk. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Directory entries looked at so far in this walk. */
  get entries(): number {
    return this.#entries;
  }

  /** True once every directory under the root has been read and every file measured. */
  get done(): boolean {
    return this.#done;
  }

  /**
   * Continues the walk until about `maxEntries` more entries were looked at, the walk is done, or
   * `bytes` exceeds `stopAboveBytes`. One directory listing is always read whole, so a single huge
   * directory can go past the budget once.
   */
  async advance(maxEntries = DEFAULT_ENTRIES_PER_STEP, stopAboveBytes = Number.POSITIVE_INFINITY): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      await this.#measureRoot();
    }
    const budgetEnd = this.#entries + Math.max(1, maxEntries);
    while (!this.#done && this.#entries < budgetEnd && this.#bytes <= stopAboveBytes) {
      if (this.#files.length > 0) {
        await this.#measureFiles(this.#files.splice(0, Math.min(LSTAT_BATCH, budgetEnd - this.#entries)));
      } else {
        const directory = this.#directories.pop();
        if (directory === undefined) this.#done = true;
        else await this.#readDirectory(directory);
      }
    }
  }

  /** Closes the directories a deep walk holds open; the walk cannot go on after this. */
  async close(): Promise<void> {
    this.#done = true;
    this.#directories.length = 0;
    this.#files.length = 0;
    await Promise.all([...this.#anchors].map((anchor) => anchor.close()));
    this.#anchors.clear();
  }

  async #measureRoot(): Promise<void> {
    const info = await lstat(this.root).catch(() => undefined);
    if (info?.isDirectory()) this.#directories.push({ path: this.root, anchor: undefined });
    else if (info?.isFile()) this.#files.push({ path: this.root, anchor: undefined });
  }

  async #readDirectory(directory: Queued): Promise<void> {
    let base = directory.path;
    let anchor = directory.anchor;
    if (needsAnchor(directory.path)) {
      // Its children's paths would be too long: go on below the open directory instead.
      const opened = await DirectoryAnchor.open(directory.path);
      if (opened !== undefined) {
        this.#anchors.add(opened);
        opened.hold();
        base = opened.path;
        anchor = opened;
      }
    }
    try {
      let entries: Dirent[];
      try {
        entries = await readdir(base, { withFileTypes: true });
      } catch {
        return; // Removed or unreadable since it was listed: it holds nothing we can count.
      }
      for (const entry of entries) {
        const child = { path: join(base, entry.name), anchor };
        // Dirent types come from readdir (lstat semantics): a symlink is never a directory here.
        if (entry.isDirectory()) {
          this.#entries += 1;
          this.#enqueue(this.#directories, child);
        } else if (entry.isFile()) {
          this.#enqueue(this.#files, child); // Counted as an entry once measured.
        } else {
          this.#entries += 1; // Symlinks, sockets, fifos, devices: no data of their own worth counting.
        }
      }
    } finally {
      if (anchor !== directory.anchor) await this.#release(anchor);
      await this.#release(directory.anchor);
    }
  }

  #enqueue(queue: Queued[], item: Queued): void {
    item.anchor?.hold();
    queue.push(item);
  }

  async #release(anchor: DirectoryAnchor | undefined): Promise<void> {
    if (anchor === undefined) return;
    if (await anchor.release()) this.#anchors.delete(anchor);
  }

  async #measureFiles(batch: Queued[]): Promise<void> {
    const infos = await Promise.all(batch.map(({ path }) => lstat(path).catch(() => undefined)));
    for (const { anchor } of batch) await this.#release(anchor);
    this.#entries += batch.length;
    for (const info of infos) {
      if (info === undefined || !info.isFile()) continue;
      if (info.nlink > 1) {
        const inode = `${info.dev}:${info.ino}`;
        if (this.#linkedInodes.has(inode)) continue;
        this.#linkedInodes.add(inode);
      }
      this.#bytes += info.size;
    }
  }
}

/** Measures the tree under `root` in one go; stops early (incomplete) once it exceeds `stopAboveBytes`. */
export async function diskUsage(root: string, options: { stopAboveBytes?: number } = {}): Promise<DiskUsage> {
  const scan = new DiskUsageScan(root);
  const stopAbove = options.stopAboveBytes ?? Number.POSITIVE_INFINITY;
  try {
    while (!scan.done && scan.bytes <= stopAbove) await scan.advance(DEFAULT_ENTRIES_PER_STEP, stopAbove);
    return { bytes: scan.bytes, entries: scan.entries, complete: scan.done };
  } finally {
    await scan.close();
  }
}

/** How `watchDiskUsage` polls a path. */
export interface DiskWatchOptions {
  /** The file or directory whose size is watched. */
  path: string;
  /** Bytes the tree may hold; going above calls `onExceeded`. */
  limit: number;
  /** Milliseconds between polls. @default 500 */
  intervalMs?: number;
  /** Entries looked at per poll; a bigger tree takes several polls per full measurement. @default 20000 */
  entriesPerPoll?: number;
}

/** Default milliseconds between two disk-usage polls. */
export const DEFAULT_DISK_POLL_MS = 500;

/**
 * Polls the size of `options.path` until stopped, calling `onExceeded` once (and stopping) when it
 * goes above the limit. Polls never overlap: the next one starts `intervalMs` after the last ended,
 * or later, as long as the last one took, so that walking a big tree on a slow disk keeps at most
 * half of a thread busy. A partial walk that already exceeds the limit counts: the files it saw
 * were really there.
 * Returns `stop`, which resolves once no poll is running any more.
 */
export function watchDiskUsage(options: DiskWatchOptions, onExceeded: (bytes: number) => void): () => Promise<void> {
  const intervalMs = Math.max(1, options.intervalMs ?? DEFAULT_DISK_POLL_MS);
  const entriesPerPoll = options.entriesPerPoll ?? DEFAULT_ENTRIES_PER_STEP;
  let scan = new DiskUsageScan(options.path);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> = Promise.resolve();

  const poll = async (): Promise<void> => {
    const started = performance.now();
    await scan.advance(entriesPerPoll, options.limit);
    const tookMs = performance.now() - started;
    if (stopped) return;
    if (scan.bytes > options.limit) {
      stopped = true;
      await scan.close();
      onExceeded(scan.bytes);
      return;
    }
    if (scan.done) scan = new DiskUsageScan(options.path);
    schedule(Math.max(intervalMs, tookMs));
  };
  const schedule = (delayMs: number): void => {
    timer = setTimeout(() => {
      // A failing poll (a harness fault, not the agent's) ends the watch instead of crashing the run.
      polling = poll().catch(() => {
        stopped = true;
      });
    }, delayMs);
  };

  // The first poll runs at once: a tree that is over the limit already is caught without a delay.
  polling = poll().catch(() => {
    stopped = true;
  });
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await polling;
    // A walk stopped halfway down a deep tree still holds directories open.
    await scan.close();
  };
}
