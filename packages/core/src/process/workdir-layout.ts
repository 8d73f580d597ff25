import { lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';

// A task may assume its files at a fixed path (`/app`). bwrap can bind the workspace over a directory
// that exists, but cannot make one in the read-only host root. For a path whose first directory does
// not exist here, the sandbox's root is its own (bwrap's empty one) holding the host's top-level
// entries, each bound read-only (links as links), beside which the workdir's directories can be made;
// that root is made read-only once everything is mounted.

/** How the sandbox places a workdir: where, and the root it needs, if not the host's. */
export interface WorkdirLayout {
  path: string;
  /** bwrap arguments that build the root; undefined when the host's, bound whole, serves. */
  root?: string[];
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
  if (paths.every(isDirectory)) return { path };
  for (const each of paths) {
    if (isDirectory(each)) continue;
    const first = each.split('/')[1] as string;
    if (exists(`/${first}`)) {
      const what = each === path ? `workdir "${path}"` : `the task path "${each}"`;
      throw new WorkdirError(
        `${what} cannot be placed: /${first} exists on this machine without it; choose a workdir whose first directory does not exist here, such as "/app"`,
      );
    }
  }
  const root: string[] = [];
  for (const entry of readdirSync('/', { withFileTypes: true })) {
    if (OWN_MOUNTS.has(entry.name)) continue;
    const host = `/${entry.name}`;
    if (entry.isSymbolicLink()) root.push('--symlink', readlinkSync(host), host);
    else root.push('--ro-bind', host, host);
  }
  return { path, root };
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
