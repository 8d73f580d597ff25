import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, lstatSync, opendirSync, openSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { lstat, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

// Agents can make trees that Node's fs.rm cannot remove: directories of mode 000 (for a non-root
// user), and nesting past PATH_MAX (4096 bytes on Linux), reached only by relative paths, on which
// every call with an absolute path fails with ENAMETOOLONG. Node has no openat(), so the fallback is
// coreutils: `chmod -R u+rwx` and `rm -rf` walk with directory descriptors (fts) and handle any depth,
// as root and as an ordinary user. Neither follows a symlink inside the tree, and `rm` removes a
// symlink given as its operand as a link. Measured: a 600-level tree of 255-character names, with a
// directory halfway down of mode 000, takes about 0.1 s to remove as `nobody`.
//
// `rm` never follows a symlink given as its operand, but `chmod -R` does, and coreutils 9.1 has no
// option against it: on Linux chmod gets the directory as an O_PATH descriptor opened without
// following links (/proc/self/fd/3), so that a directory swapped for a link after it was checked
// cannot send it elsewhere. O_PATH needs no permission on the directory itself.

// Sync removal runs in exit handlers, which must not hang the process on its way out.
const SYNC_TIMEOUT_MS = 20_000;
// rm names the path it failed on, which can be 150,000 characters deep in such a tree.
const MAX_REASON_CHARS = 300;

/** Raised when a tree is still there after every way of removing it; `reason` says why, briefly. */
export class RemoveTreeError extends Error {
  override readonly name = 'RemoveTreeError';
  readonly code = 'GZ_BENCH_REMOVE_FAILED';

  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`could not remove ${path}: ${reason}`);
  }
}

/**
 * Removes `path` (absolute) and everything below it, whatever permissions or depth the tree has; a
 * symlink is removed as a link, its target left alone. Missing is success, also when another process
 * removes the same tree at the same time. Throws a RemoveTreeError when the path remains.
 */
export async function removeTree(path: string): Promise<void> {
  assertRemovable(path);
  if (removeSmallTreeSync(path, { entries: SYNC_ENTRY_BUDGET })) return;
  let first: unknown;
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
    return;
  } catch (error) {
    // EACCES below a directory of mode 000, or ENAMETOOLONG deep down: coreutils can do both.
    first = error;
  }
  await restoreOwnerAccess(path);
  const removal = await runTool('rm', ['-rf', '--', path]);
  if ((await lstat(path).catch(() => undefined)) === undefined) return;
  throw new RemoveTreeError(path, brief(removal.failure ?? errorMessage(first)));
}

// A case area holds a few entries, and the agent's work often a few dozen more. Removed with
// synchronous calls, such a tree goes in about half the time fs.rm takes, whose every call is a trip
// through libuv's thread pool (a trivial case's area of 8 entries: 0.84 → 0.46 ms on 2 cores, the
// rest the file system's own work). A bigger tree is handed to fs.rm after this many entries, so
// that no removal holds up the thread for long.
export const SYNC_ENTRY_BUDGET = 64;

/**
 * Removes `path` with synchronous calls, while the tree has no more than `budget.entries` entries
 * below it and no call fails; true when it is gone. Otherwise it stops where it was and returns false,
 * for fs.rm and the fallbacks to remove the rest. Entries are removed as they are listed, a symlink
 * as a link: nothing is followed.
 */
function removeSmallTreeSync(path: string, budget: { entries: number }): boolean {
  try {
    if (!lstatSync(path).isDirectory()) {
      unlinkSync(path);
      return true;
    }
    // Read in batches, so that a directory of a million entries costs no more than the budget here.
    const dir = opendirSync(path);
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        budget.entries -= 1;
        if (budget.entries < 0) return false;
        const child = join(path, entry.name);
        if (!entry.isDirectory()) unlinkSync(child);
        else if (!removeSmallTreeSync(child, budget)) return false;
      }
    } finally {
      dir.closeSync();
    }
    rmdirSync(path);
    return true;
  } catch {
    // Missing, a directory of mode 000, a path past PATH_MAX, a file that changed kind: fs.rm and the
    // fallbacks know what to do with each.
    return false;
  }
}

/**
 * Adds owner rwx to the directory at `path` and to everything below it, at any depth, so that the tree
 * can be listed and emptied; other permission bits are kept. A symlink, at `path` or inside, is never
 * followed. Does nothing for anything but a directory; never throws.
 */
export async function restoreOwnerAccess(path: string): Promise<void> {
  await restoreAccess(path, (operand, fd) => runTool('chmod', ['-R', 'u+rwx', '--', operand], fd));
}

/** `removeTree` for exit handlers, where nothing asynchronous runs; bounded in time. */
export function removeTreeSync(path: string): void {
  assertRemovable(path);
  let first: unknown;
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return;
  } catch (error) {
    first = error;
  }
  restoreAccessSync(path, (operand, fd) => runToolSync('chmod', ['-R', 'u+rwx', '--', operand], fd));
  const failure = runToolSync('rm', ['-rf', '--', path]);
  if (lstatOrUndefined(path) === undefined) return;
  throw new RemoveTreeError(path, brief(failure ?? errorMessage(first)));
}

function assertRemovable(path: string): void {
  // Relative paths would depend on the cwd of the moment; `/` is never a tree of ours.
  if (!isAbsolute(path) || path === '/') throw new TypeError(`not an absolute path below /: ${JSON.stringify(path)}`);
}

// Linux's O_PATH, which Node's constants lack: a descriptor that names a file without opening it.
const O_PATH = 0o10000000;
const PINNED_OPERAND = '/proc/self/fd/3';

type Chmod<T> = (operand: string, fd: number | undefined) => T;

async function restoreAccess(path: string, chmod: Chmod<Promise<unknown>>): Promise<void> {
  const pinned = pinDirectory(path);
  if (pinned === 'not a directory') return;
  try {
    await chmod(pinned === undefined ? path : PINNED_OPERAND, pinned);
  } finally {
    if (pinned !== undefined) closeSync(pinned);
  }
}

function restoreAccessSync(path: string, chmod: Chmod<unknown>): void {
  const pinned = pinDirectory(path);
  if (pinned === 'not a directory') return;
  try {
    chmod(pinned === undefined ? path : PINNED_OPERAND, pinned);
  } finally {
    if (pinned !== undefined) closeSync(pinned);
  }
}

/** An O_PATH descriptor of the directory at `path` (never through a link) on Linux; undefined elsewhere. */
function pinDirectory(path: string): number | 'not a directory' | undefined {
  if (process.platform !== 'linux') return lstatOrUndefined(path)?.isDirectory() ? undefined : 'not a directory';
  try {
    return openSync(path, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    // A symlink (ENOTDIR), a file, or nothing there: nothing for chmod to do.
    return 'not a directory';
  }
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What a coreutils run said when it failed; undefined when it succeeded. */
interface ToolRun {
  failure: string | undefined;
}

// English messages whatever the user's locale, and nothing else of the harness's environment.
function toolEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
}

function runTool(file: string, args: string[], fd?: number): Promise<ToolRun> {
  return new Promise((resolve) => {
    const said = new FirstMessage();
    const child = spawn(file, args, { env: toolEnv(), stdio: ['ignore', 'ignore', 'pipe', ...fdStdio(fd)] });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => said.add(chunk));
    child.on('error', (error) => resolve({ failure: `${file}: ${error.message}` }));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ failure: undefined });
      resolve({ failure: said.text() ?? `${file} ended with ${signal ?? `exit code ${code}`}` });
    });
  });
}

function runToolSync(file: string, args: string[], fd?: number): string | undefined {
  const run = spawnSync(file, args, {
    env: toolEnv(),
    stdio: ['ignore', 'ignore', 'pipe', ...fdStdio(fd)],
    encoding: 'utf8',
    timeout: SYNC_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error !== undefined) return `${file}: ${run.error.message}`;
  if (run.status === 0) return undefined;
  const said = new FirstMessage();
  said.add(run.stderr ?? '');
  return said.text() ?? `${file} ended with ${run.signal ?? `exit code ${run.status}`}`;
}

/**
 * The gist of what a tool wrote to stderr, in bounded memory: its first line, or, when that line
 * is huge (rm quotes the path it failed on, however deep), its start and the end of its last line,
 * which holds the reason (`…': Permission denied`).
 */
class FirstMessage {
  private head = '';
  private tail = '';

  add(chunk: string): void {
    if (this.head.length < KEEP_CHARS) this.head += chunk.slice(0, KEEP_CHARS - this.head.length);
    this.tail = (this.tail + chunk).slice(-KEEP_CHARS);
  }

  text(): string | undefined {
    const newline = this.head.indexOf('\n');
    if (newline !== -1 || this.head.length < KEEP_CHARS) return firstLine(this.head);
    const lastLine = this.tail.trimEnd().split('\n').pop() ?? '';
    return `${this.head.slice(0, MAX_REASON_CHARS)}…${lastLine.slice(-MAX_REASON_CHARS)}`;
  }
}

const KEEP_CHARS = 8192;

/** The descriptor as the child's fd 3, where `PINNED_OPERAND` finds it. */
function fdStdio(fd: number | undefined): number[] {
  return fd === undefined ? [] : [fd];
}

function firstLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
}

function errorMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Shortens a message that quotes a very deep path, keeping both ends. */
function brief(reason: string): string {
  if (reason.length <= MAX_REASON_CHARS) return reason;
  const half = Math.floor((MAX_REASON_CHARS - 1) / 2);
  return `${reason.slice(0, half)}…${reason.slice(-half)}`;
}
