import { lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';

// A task may assume its files at a fixed path (`/app`). bwrap can bind the workspace over a directory
// that exists, but cannot make one in the read-only host root. For a path whose first directory does
// not exist here, the sandbox's root is its own (bwrap's empty one) holding the host's top-level
// entries, each bound read-only (links as links), beside which the workdir's directories can be made;
// that root is made read-only once everything is mounted. A path inside a host directory that exists
// (`/root/work`) gets the same treatment one level down: that directory is rebuilt from its entries.

/** How the sandbox places a workdir: where, and the root it needs, if not the host's. */
export interface WorkdirLayout {
  path: string;
  /** bwrap arguments that build the root; undefined when the host's, bound whole, serves. */
  root?: string[];
  /**
   * bwrap arguments that rebuild host directories a path must be made in (`/root` for `/root/work`):
   * an empty directory over each, its host entries bound in again, so the path can be made beside
   * them; each is made read-only again once everything is mounted (`coverDirs`).
   */
  covers?: string[];
  coverDirs?: string[];
  /** Whether `root` is a trial's own (an image's overlay), which the commands may change. */
  writableRoot?: boolean;
}

/** Raised when the workdir cannot be placed on this machine. */
export class WorkdirError extends Error {
  override name = 'WorkdirError';
}

/** Entries bwrap mounts itself. */
const OWN_MOUNTS = new Set(['proc', 'dev']);

/**
 * The layout for `path` (validated by the suite schema), and for the further fixed paths `also` (a
 * task's /tests and /logs), or a WorkdirError saying why there is none.
 */
export function workdirLayout(path: string, also: readonly string[] = []): WorkdirLayout {
  const paths = [path, ...also];
  const missing = paths.filter((each) => !isDirectory(each));
  if (missing.length === 0) return { path };
  const covered = new Set<string>();
  let ownRoot = false;
  for (const each of missing) {
    const ancestor = deepestExisting(each);
    if (ancestor === '/') {
      ownRoot = true;
    } else if (isDirectory(ancestor)) {
      covered.add(ancestor);
    } else {
      const what = each === path ? `workdir "${path}"` : `the task path "${each}"`;
      throw new WorkdirError(
        `${what} cannot be placed: ${ancestor} on this machine is not a directory; choose another workdir, such as "/app"`,
      );
    }
  }
  // Shallower first: a deeper directory is then rebuilt inside the copy of the shallower one.
  const covers = [...covered].sort((a, b) => a.split('/').length - b.split('/').length);
  return {
    path,
    ...(ownRoot && { root: entriesOf('/') }),
    ...(covers.length > 0 && {
      covers: covers.flatMap((dir) => ['--tmpfs', dir, ...entriesOf(dir)]),
      coverDirs: covers,
    }),
  };
}

/**
 * bwrap arguments that show each entry of the host directory `dir` at its place, read-only (links as
 * links), in an empty directory mounted there before.
 */
function entriesOf(dir: string): string[] {
  const args: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (dir === '/' && OWN_MOUNTS.has(entry.name)) continue;
    const host = dir === '/' ? `/${entry.name}` : `${dir}/${entry.name}`;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
    else args.push('--ro-bind', host, host);
  }
  return args;
}

/** The deepest ancestor of `path` (or itself) that exists on this machine; '/' at the least. */
function deepestExisting(path: string): string {
  let current = path;
  while (current !== '/' && !exists(current)) current = current.slice(0, current.lastIndexOf('/')) || '/';
  return current;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
