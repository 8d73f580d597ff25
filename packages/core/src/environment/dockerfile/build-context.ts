import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { globRegExp } from '../../changes/exclude.js';

// A build context as Docker sends one to its builder: the files of a directory less those its
// `.dockerignore` names. What a build may COPY is only these, and their content (names, kinds,
// modes, bytes, link targets) is what makes a build's digest, so a second run of an unchanged
// context builds nothing and a changed byte builds again.

/** The files of a build context that a COPY may take. */
export interface BuildContext {
  dir: string;
  /** Paths relative to `dir`, with `/`, sorted: files, links and directories. */
  entries: ReadonlySet<string>;
  /** sha256 over every entry's name, kind, mode and content. */
  digest: string;
}

/** Reads the context at `dir` (which must be a directory), less its `.dockerignore` and `ignore`. */
export async function readBuildContext(dir: string, ignore: readonly string[] = []): Promise<BuildContext> {
  const ignored = await dockerignore(dir, ignore);
  const entries = (await walk(dir, '', ignored)).sort();
  const hash = createHash('sha256');
  for (const path of entries) {
    const full = join(dir, path);
    const stats = await lstat(full);
    hash.update(`${path}\0${stats.mode.toString(8)}\0`);
    if (stats.isSymbolicLink()) hash.update(await readlink(full));
    else if (stats.isFile()) hash.update(await readFile(full));
    hash.update('\0');
  }
  return { dir, entries: new Set(entries), digest: `sha256:${hash.digest('hex')}` };
}

/** The paths below `dir` (relative, `/`-separated), not entering links or what `ignored` matches. */
async function walk(root: string, prefix: string, ignored: (path: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, prefix), { withFileTypes: true })) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (ignored(path)) continue;
    found.push(path);
    if (entry.isDirectory()) found.push(...(await walk(root, path, ignored)));
  }
  return found;
}

/**
 * What the context's `.dockerignore` leaves out: its patterns match from the context's root, and a
 * directory that matches takes all below it. `!` exceptions are not supported and are skipped.
 */
async function dockerignore(dir: string, ignore: readonly string[]): Promise<(path: string) => boolean> {
  const text = await readFile(join(dir, '.dockerignore'), 'utf8').catch(() => '');
  const patterns = [...text.split('\n'), ...ignore]
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
    .map((line) => globRegExp(posix.normalize(`/${line}`).slice(1).replace(/\/+$/, '')));
  return (path) => patterns.some((pattern) => pattern.test(path));
}

/**
 * Where a COPY's source `path` is on the host: `..` stops at the context's root, as Docker's builder
 * treats the context as the root of its sources, so no source leaves it.
 */
export function contextPath(context: BuildContext, path: string): string {
  return join(context.dir, posix.normalize(`/${path}`));
}

/** Whether the context holds `full` (a host path inside it), or the context's root itself. */
export function inContext(context: BuildContext, full: string): boolean {
  const rel = relative(context.dir, full).split(sep).join('/');
  return rel === '' || context.entries.has(rel);
}
