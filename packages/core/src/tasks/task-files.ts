import { lstat, readdir, readFile } from 'node:fs/promises';
import { taskError } from './task-error.js';

/** How messages name `name` in the task directory shown as `display`. */
export function displayOf(display: string, name: string): string {
  return display === '' || display === '.' ? name : `${display.replace(/\/$/, '')}/${name}`;
}

/**
 * A task file's text. A missing file fails with its name, unless optional (then undefined); a link or
 * a directory where the file belongs fails too: a task's files are its own.
 */
export async function readTaskText(path: string, display: string, what?: string): Promise<string>;
export async function readTaskText(
  path: string,
  display: string,
  options: { optional: true },
): Promise<string | undefined>;
export async function readTaskText(
  path: string,
  display: string,
  options?: { optional: true } | string,
): Promise<string | undefined> {
  const what = typeof options === 'object' ? undefined : (options ?? 'a file the task needs');
  const exists = await requireFile(path, display, what);
  if (!exists) return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw taskError(display, undefined, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

/**
 * Whether the regular file `path` exists. When `what` names what it is for, a missing file fails;
 * anything but a regular file (a link, a directory) fails either way.
 */
export async function requireFile(path: string, display: string, what: string | undefined): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined) {
    if (what === undefined) return false;
    throw taskError(display, undefined, `file not found (${what})`);
  }
  if (!stats.isFile()) throw taskError(display, undefined, 'must be a regular file, not a link or a directory');
  return true;
}

/** The top entries of a build context, sorted, less `exclude` (for `COPY . <dest>`). */
export async function contextEntries(dir: string, exclude: readonly string[]): Promise<string[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const skipped = new Set([...exclude, 'Dockerfile', '.dockerignore', 'docker-compose.yaml', 'docker-compose.yml']);
  return entries.filter((entry) => !skipped.has(entry)).sort();
}

/** The first line of a parser's message, without the colon before the excerpt it would show. */
export function parserReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').trim().replace(/:$/, '');
}

/** Whether `dir` is a directory (not a link to one). */
export async function isDirectory(dir: string): Promise<boolean> {
  return (await lstat(dir).catch(() => undefined))?.isDirectory() === true;
}

/** A task's YAML file, parsed: not valid YAML is one line naming the file, as every task error is. */
export async function parseTaskYaml(text: string, display: string): Promise<unknown> {
  const { parse } = await import('yaml');
  try {
    return parse(text);
  } catch (error) {
    throw taskError(display, undefined, `not valid YAML: ${parserReason(error)}`);
  }
}
