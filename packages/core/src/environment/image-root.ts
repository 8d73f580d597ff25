import { mkdir, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { findOnPath } from '../process/find-on-path.js';
import type { CaseArea } from '../workspace/case-area.js';
import { IMAGE_ENTRY } from '../workspace/check-dirs.js';
import type { AgentProgram } from './agent-program.js';

// Each trial gets a fresh overlay over its image's unpacked root: the lower layer is the stored image,
// shared and never written; the upper one lives in the trial's case area, so whatever setup, the
// agent and the checks change in the image (a `pip install`, a file in /etc) lasts for the trial and
// goes with its area. bubblewrap before 0.9 cannot mount an overlay itself, so each command starts in
// a private mount namespace of its own (`unshare --mount`, with a user namespace when the harness is
// not root) whose shell mounts the overlay and then becomes bwrap, which takes it as its `/`. The
// mount lives only in that namespace: when the command's processes are gone, so is the mount, and a
// killed run leaves none behind.

/** Where the host's node appears in every image, on the commands' PATH after the image's own. */
export const IMAGE_NODE_DIR = '/.gz-bench/bin';

/** The name of the overlay-mounting shell in `ps`. */
const MOUNTER_NAME = 'gz-bench-overlay';

// "$1".."$5": lower, upper, work, merged, extra options; the rest is bwrap's argv. Paths reach
// `mount` only as arguments, never as code.
const MOUNT_SCRIPT = 'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3$5" "$4" && shift 5 && exec "$@"';

/** A trial's root in its image, as the launch of each of its commands needs it. */
export interface ImageRoot {
  /** What goes before bwrap's argv: the private mount namespace and the shell that mounts the overlay. */
  launcher: string[];
  /** bwrap's first arguments: the overlay as `/`, then the host's node and directories, read-only. */
  root: string[];
  /** The overlay's own directories in the area, which the commands see empty. */
  masks: string[];
  /** The directories of the host shown in the image at their own paths. */
  hostDirs: string[];
  /** Host directories on the commands' PATH after the image's own and the host's node (the agent's .bin). */
  path: string[];
}

/** Raised when a trial's root cannot be made here (no `unshare`, a path `mount` cannot take). */
export class ImageRootError extends Error {
  override name = 'ImageRootError';
}

/**
 * Makes the overlay's directories of a trial in its area, and the launch pieces of its root over
 * `rootfs`, with the host directories `hostDirs` (the project, the suite) shown read-only inside.
 */
export async function createImageRoot(
  rootfs: string,
  area: CaseArea,
  hostDirs: readonly string[],
  program: AgentProgram = { dirs: [], root: [], path: [] },
  env: NodeJS.ProcessEnv = process.env,
): Promise<ImageRoot> {
  const unshare = findOnPath('unshare', env.PATH ?? '/usr/bin:/bin');
  if (unshare === undefined) throw new ImageRootError('an image needs `unshare` (util-linux) on the PATH');
  const base = join(area.root, IMAGE_ENTRY);
  const [upper, work, merged] = ['upper', 'work', 'root'].map((name) => join(base, name)) as [string, string, string];
  for (const path of [rootfs, upper]) {
    // `mount -o` separates its options by commas and overlay's layers by colons.
    if (/[,:\\]/.test(path)) throw new ImageRootError(`an image's directory may not hold ",", ":" or "\\": ${path}`);
  }
  await mkdir(base, { mode: 0o700 });
  await Promise.all([upper, work, merged].map((dir) => mkdir(dir, { mode: 0o755 })));
  const asRoot = process.getuid?.() === 0;
  const shown = uniqueDirs([...hostDirs, ...program.dirs]);
  return {
    launcher: [
      unshare,
      '--mount',
      '--propagation',
      'private',
      // Unprivileged: a user namespace whose root may mount the overlay (Linux 5.11 and later).
      ...(asRoot ? [] : ['--user', '--map-root-user']),
      '--',
      '/bin/sh',
      '-c',
      MOUNT_SCRIPT,
      MOUNTER_NAME,
      rootfs,
      upper,
      work,
      merged,
      asRoot ? '' : ',userxattr',
    ],
    root: [
      '--bind',
      merged,
      '/',
      '--ro-bind',
      await realpath(process.execPath),
      `${IMAGE_NODE_DIR}/node`,
      ...shown.flatMap((dir) => ['--ro-bind', dir, dir]),
      ...program.root,
    ],
    masks: [base],
    hostDirs: shown,
    path: program.path,
  };
}

/** Directories without those inside another of them, and never `/` (the host's root would hide the image's). */
function uniqueDirs(dirs: readonly string[]): string[] {
  const sorted = [...new Set(dirs)].filter((dir) => dir !== '/' && dir.startsWith('/')).sort();
  return sorted.filter((dir, index) => !sorted.slice(0, index).some((outer) => isInside(dir, outer)));
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

/** The PATH an image's `Env` sets, or the one Docker gives an image that sets none. */
export function imagePathOf(imageVars: readonly string[]): string {
  const entry = imageVars.findLast((each) => each.startsWith('PATH='));
  return entry === undefined ? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' : entry.slice(5);
}

/**
 * The environment of a command in the image: the image's `Env` under the case's own variables. Its
 * PATH comes first, then the host's node, then the entries of the host's PATH that the image shows
 * (a project's node_modules/.bin). `own` names the variables that stay as the case set them (HOME,
 * TMPDIR, the case's `env`, gz-bench's own); every other variable the image sets wins over the host's.
 */
export function imageEnv(
  imageVars: readonly string[],
  env: Readonly<Record<string, string>>,
  own: ReadonlySet<string>,
  root: Pick<ImageRoot, 'hostDirs' | 'path'>,
): Record<string, string> {
  const { hostDirs } = root;
  const result: Record<string, string> = { ...env };
  const imagePath = imagePathOf(imageVars);
  for (const entry of imageVars) {
    const at = entry.indexOf('=');
    if (at <= 0) continue;
    const name = entry.slice(0, at);
    // gz-bench's own variables are never the image's to set.
    if (name !== 'PATH' && !own.has(name) && !name.startsWith('GZ_BENCH_')) result[name] = entry.slice(at + 1);
  }
  const hostEntries = (env.PATH ?? '')
    .split(':')
    .filter((entry) => entry.startsWith('/') && hostDirs.some((dir) => isInside(entry, dir)));
  const entries = [imagePath, IMAGE_NODE_DIR, ...new Set([...hostEntries, ...root.path])];
  if (!own.has('PATH')) result.PATH = entries.filter((entry) => entry !== '').join(':');
  return result;
}
