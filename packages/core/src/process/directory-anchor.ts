import { constants, existsSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

// A walk with absolute paths stops at PATH_MAX (4096 bytes on Linux): deeper down, every call fails
// with ENAMETOOLONG, and an agent could hide files there from the disk limit. Node has no openat(),
// but on Linux an open directory is reachable as /proc/self/fd/<fd>, a short path whatever the
// directory's depth: a walk that opens a directory once its paths grow long, and goes on below that
// short path, reaches any depth.

// Well below PATH_MAX, so that a path of this length plus one more name (255 bytes at most) still fits.
const ANCHOR_ABOVE_BYTES = 3072;
const ANCHORS_WORK = process.platform === 'linux' && existsSync('/proc/self/fd');

/** True when `path` is too long to use as it is once a name is added, and an anchor can stand in. */
export function needsAnchor(path: string): boolean {
  return ANCHORS_WORK && Buffer.byteLength(path) > ANCHOR_ABOVE_BYTES;
}

/**
 * An open directory that paths below it go through; closed once the last holder releases it. Each
 * path queued below it holds it once.
 */
export class DirectoryAnchor {
  #holders = 0;

  private constructor(
    private readonly handle: FileHandle,
    /** `/proc/self/fd/<fd>`: the directory, by a short path. */
    readonly path: string,
  ) {}

  /** Opens the directory at `path` (never through a symlink), or undefined when it cannot be. */
  static async open(path: string): Promise<DirectoryAnchor | undefined> {
    const flags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
    const handle = await open(path, flags).catch(() => undefined);
    return handle === undefined ? undefined : new DirectoryAnchor(handle, `/proc/self/fd/${handle.fd}`);
  }

  hold(): void {
    this.#holders += 1;
  }

  /** Lets go of it; true when that was the last hold and it is now closed. */
  async release(): Promise<boolean> {
    this.#holders -= 1;
    if (this.#holders > 0) return false;
    await this.handle.close().catch(() => {});
    return true;
  }

  /** Closes it whatever holds it: for a walk that is abandoned. */
  async close(): Promise<void> {
    this.#holders = 0;
    await this.handle.close().catch(() => {});
  }
}
