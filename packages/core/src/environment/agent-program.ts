import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { programOf } from '../agents/shell-words.js';
import { pathInImage } from '../images/index.js';
import { findOnPath } from '../process/find-on-path.js';
import { IMAGE_NODE_DIR } from './image-root.js';

// The agent runs inside the image on the host's node, and its CLI is the host's too, shown read-only
// rather than installed. Where the CLI is a project's (its node_modules is under the project, which
// the image shows anyway) nothing more is needed. Otherwise (a global install, a tree of its own) the
// node_modules that holds it is shown at its own path, and the program at /.gz-bench/bin/<name>:
// a link to its real file, so that node finds its modules beside it. A native program outside any
// node_modules is shown there itself. An image that has a program of that name keeps its own.

/** What shows the agent's program in the image: more host directories, bwrap arguments, PATH entries. */
export interface AgentProgram {
  dirs: string[];
  root: string[];
  path: string[];
}

const NONE: AgentProgram = { dirs: [], root: [], path: [] };

/**
 * How the program of the agent command `cmd` (found on `hostPath`, else in a node_modules/.bin of
 * `cwd` or above, as npx finds it) is shown in the image at `rootfs` whose PATH is `imagePath`.
 */
export async function agentProgram(
  cmd: string,
  hostPath: string,
  cwd: string,
  rootfs: string,
  imagePath: string,
): Promise<AgentProgram> {
  const program = programOf(cmd);
  if (program === undefined || program.includes('/') || program.startsWith('$')) return NONE;
  for (const dir of imagePath.split(':')) {
    if (dir.startsWith('/') && (await isInImage(rootfs, join(dir, program)))) return NONE;
  }
  const found = findOnPath(program, hostPath) ?? inNodeModulesBin(program, cwd);
  if (found === undefined) return NONE;
  const real = await realpath(found).catch(() => found);
  const modules = topNodeModules(real) ?? topNodeModules(found);
  if (modules === undefined) return { dirs: [], root: ['--ro-bind', real, `${IMAGE_NODE_DIR}/${program}`], path: [] };
  // A .bin of that node_modules (pnpm's shims find their package from their own directory): on the PATH as it is.
  if (isUnder(found, modules)) return { dirs: [modules], root: [], path: [dirname(found)] };
  return { dirs: [modules], root: ['--symlink', real, `${IMAGE_NODE_DIR}/${basename(program)}`], path: [] };
}

function inNodeModulesBin(program: string, cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = findOnPath(program, join(dir, 'node_modules', '.bin'));
    if (candidate !== undefined) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The outermost `node_modules` directory `path` is in, or undefined. */
function topNodeModules(path: string): string | undefined {
  const parts = path.split(sep);
  const at = parts.indexOf('node_modules');
  return at <= 0 ? undefined : parts.slice(0, at + 1).join(sep);
}

function isUnder(path: string, dir: string): boolean {
  return path.startsWith(`${dir}${sep}`);
}

async function isInImage(rootfs: string, path: string): Promise<boolean> {
  const host = await pathInImage(rootfs, path).catch(() => undefined);
  return host !== undefined && (await stat(host).catch(() => undefined))?.isFile() === true;
}
