import { posix } from 'node:path';
import type { CheckFs } from './types.js';

// Checks run on Linux and macOS, and memfs volumes in tests use posix paths too: always `posix`.

/** Where a check's path leads, decided without reading anything outside the workspace. */
export type WorkspacePath =
  /** Something exists there; `realPath` has no symlinks left and lies inside the workspace. */
  | { status: 'found'; realPath: string }
  /** Nothing exists there. */
  | { status: 'missing' }
  /** A symlink that leads nowhere (dangling or looping) sits at the path: not a file, yet not nothing. */
  | { status: 'dangling' }
  /** The path may not be used; `message` says why, naming the path as the check wrote it. */
  | { status: 'refused'; message: string };

// Errors that mean "nothing resolvable is there", as opposed to faults of the harness (EACCES, EIO…).
const UNRESOLVABLE_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** Resolves a check's workspace-relative `relativePath` through `fs`, refusing any way out of `workspace`. */
export async function resolveWorkspacePath(
  fs: CheckFs,
  workspace: string,
  relativePath: string,
): Promise<WorkspacePath> {
  if (relativePath.includes('\0')) {
    return refused(`path contains a NUL character: ${JSON.stringify(relativePath)}`);
  }
  if (posix.isAbsolute(relativePath)) {
    return refused(`path must be relative to the workspace: ${relativePath}`);
  }
  // Normalising first means `a/../x` is `x` even when `a` is a symlink: we only ever look below the
  // workspace, never wherever a kernel walk through `a/..` would have gone.
  const normalized = posix.normalize(relativePath);
  if (normalized === '..' || normalized.startsWith('../')) {
    return refused(`path leaves the workspace: ${relativePath}`);
  }

  // Compare real paths with the workspace's real path, so a workspace under a symlinked tmpdir
  // (macOS /var → /private/var) still counts as inside.
  const root = await fs.realpath(workspace);
  const outsideViaSymlink = refused(`path leads outside the workspace through a symlink: ${relativePath}`);
  const lexical = posix.join(root, normalized);

  const real = await realpathIfResolvable(fs, lexical);
  if (real !== undefined) {
    return isWithin(root, real) ? { status: 'found', realPath: real } : outsideViaSymlink;
  }

  // Nothing resolves at the full path. Find its deepest ancestor that does: if that one lies outside,
  // the path leads outside through a symlink even though its last part is missing.
  let ancestor = posix.dirname(lexical);
  let realAncestor = await realpathIfResolvable(fs, ancestor);
  while (realAncestor === undefined) {
    // The root resolved above, so this walk normally ends there; the guard only stops a root that
    // vanished meanwhile from looping forever at `/`.
    if (ancestor === root) return { status: 'missing' };
    ancestor = posix.dirname(ancestor);
    realAncestor = await realpathIfResolvable(fs, ancestor);
  }
  if (!isWithin(root, realAncestor)) return outsideViaSymlink;
  // A missing or dangling directory on the way: nothing can be at the path.
  if (ancestor !== posix.dirname(lexical)) return { status: 'missing' };

  // The parent is a real directory inside the workspace. lstat the last part without following it: an
  // entry there is a symlink that does not resolve. We never follow it, wherever it points.
  try {
    await fs.lstat(posix.join(realAncestor, posix.basename(lexical)));
    return { status: 'dangling' };
  } catch (error) {
    if (isUnresolvable(error)) return { status: 'missing' };
    throw error;
  }
}

/** True when `candidate` is `root` or lies below it; both must be real, normalised absolute paths. */
function isWithin(root: string, candidate: string): boolean {
  const relative = posix.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith('../') && !posix.isAbsolute(relative));
}

async function realpathIfResolvable(fs: CheckFs, target: string): Promise<string | undefined> {
  try {
    return await fs.realpath(target);
  } catch (error) {
    if (isUnresolvable(error)) return undefined;
    throw error;
  }
}

function isUnresolvable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNRESOLVABLE_CODES.has(code);
}

function refused(message: string): WorkspacePath {
  return { status: 'refused', message };
}
