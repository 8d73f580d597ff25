import { chmod, copyFile, lstat, mkdir, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { HomeFile } from '../agents/definition.js';
import { writeAgentGitConfig } from './agent-git.js';

// A case HOME starts empty, in the case area (so the sandbox lets the case write it, and it goes with
// the area). Before setup, it gets the agent's git config, copies of the agent's login files from the
// user's real HOME, then the agent's own home files (its settings, which win over a login copy of the
// same path). Copies, never links: whatever the agent does to them, in the sandbox or not, the real
// files stay as they were. Nothing is followed out of the real HOME.

/** What a case HOME starts with. */
export interface SeedHomeOptions {
  /** The case HOME, an empty directory. */
  home: string;
  /** The user's real HOME, which `login` paths are relative to; undefined when the harness has none. */
  realHome: string | undefined;
  /** Paths under the real HOME (files or directories) to copy into the case HOME at the same place. */
  login?: readonly string[];
  /** A login path that does not exist is passed over without a warning. @default false */
  loginOptional?: boolean;
  /** Files to write into the case HOME. */
  files?: readonly HomeFile[];
  /** The case area, never copied (a real HOME may hold the temp dir that holds it). */
  area: string;
}

/**
 * Why `path` cannot name a place in HOME (a login path or a home file), or undefined when it can: it
 * must be relative, without `..`, and name something below HOME, not HOME itself.
 */
export function homePathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return 'must be a non-empty path';
  if (path.includes('\0')) return 'may not contain a NUL character';
  if (isAbsolute(path)) return 'must be relative to HOME, not absolute';
  const segments = path.split('/');
  if (segments.includes('..')) return 'may not contain ".." (it must stay inside HOME)';
  if (segments.every((segment) => segment === '' || segment === '.'))
    return 'must name a file or directory inside HOME';
  return undefined;
}

/** `path` without `.` and empty segments. */
function normalHomePath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

/** Seeds a case HOME (see the top of this file). Returns warnings for what could not be copied or written. */
export async function seedCaseHome(options: SeedHomeOptions): Promise<string[]> {
  const warnings: string[] = [];
  await writeAgentGitConfig(options.home);
  if ((options.login ?? []).length > 0) warnings.push(...(await copyLogins(options)));
  for (const file of options.files ?? []) {
    const problem = await writeHomeFile(options.home, normalHomePath(file.path), file.content);
    if (problem !== undefined) warnings.push(`the agent's home file ${file.path} could not be written (${problem})`);
  }
  return warnings;
}

async function writeHomeFile(home: string, path: string, content: string): Promise<string | undefined> {
  const target = join(home, path);
  try {
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isDirectory()) return 'a login copied a directory there';
    // Over a login copy of the same file: the case HOME holds no links, so this replaces that copy alone.
    await rm(target, { force: true });
    await writeFile(target, content, { mode: 0o600, flag: 'wx' });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/** What a login copy skipped inside a directory, and why. */
interface Skipped {
  path: string;
  reason: string;
}

// One warning names at most this many entries.
const MAX_SKIPPED_SHOWN = 5;

async function copyLogins(options: SeedHomeOptions): Promise<string[]> {
  const login = options.login ?? [];
  if (options.realHome === undefined || options.realHome === '') {
    return ["the agent's login files were not copied: HOME is not set in gz-bench's environment"];
  }
  let base: string;
  try {
    base = await realpath(options.realHome);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return [`the agent's login files were not copied: HOME (${options.realHome}) cannot be read (${code})`];
  }
  const warnings: string[] = [];
  for (const given of login) {
    const path = normalHomePath(given);
    const shown = join(options.realHome, path);
    let source: string;
    try {
      source = await realpath(join(base, path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && options.loginOptional === true) continue;
      const why = code === 'ENOENT' ? 'it does not exist' : `it cannot be read (${code ?? String(error)})`;
      warnings.push(`the agent's login ${path} was not copied: ${shown}: ${why}`);
      continue;
    }
    if (!isInside(base, source) || source === base) {
      warnings.push(`the agent's login ${path} was not copied: ${shown} leads outside HOME (to ${source})`);
      continue;
    }
    const skipped: Skipped[] = [];
    const copier = new LoginCopier(base, options.area, skipped);
    const target = join(options.home, path);
    try {
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await copier.copy(source, target, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      warnings.push(`the agent's login ${path} was not copied: ${shown} cannot be read (${code})`);
      continue;
    }
    if (skipped.length > 0) {
      const shownSkips = skipped.slice(0, MAX_SKIPPED_SHOWN).map((entry) => `${entry.path} (${entry.reason})`);
      const more = skipped.length - MAX_SKIPPED_SHOWN;
      const list = more > 0 ? [...shownSkips, `${more} more`] : shownSkips;
      const noun = skipped.length === 1 ? 'entry' : 'entries';
      warnings.push(`the agent's login ${path}: ${skipped.length} ${noun} not copied: ${list.join(', ')}`);
    }
  }
  return warnings;
}

/**
 * Copies one login path, a file or a directory tree, as plain files and directories (owner-only, so
 * that a login's secrets stay the user's). A symlink inside it is copied as the file it leads to when
 * that file is inside HOME; links to directories or out of HOME, and sockets, FIFOs and devices, are
 * skipped and named.
 */
class LoginCopier {
  constructor(
    private readonly base: string,
    private readonly area: string,
    private readonly skipped: Skipped[],
  ) {}

  async copy(source: string, target: string, shown: string): Promise<void> {
    const stats = await lstat(source);
    if (stats.isDirectory()) {
      // The case area itself, in a real HOME that holds the temp dir: gz-bench's, never the login's.
      if (source === this.area) return;
      await mkdir(target, { recursive: true, mode: 0o700 });
      for (const name of await readdir(source)) {
        const path = `${shown}/${name}`;
        try {
          await this.copy(join(source, name), join(target, name), path);
        } catch (error) {
          // One unreadable entry costs the copy that entry, not the rest of the login.
          this.skipped.push({ path, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
        }
      }
      return;
    }
    if (stats.isFile()) {
      await copyPlainFile(source, target, stats.mode);
      return;
    }
    if (stats.isSymbolicLink()) {
      await this.copyLinkTarget(source, target, shown);
      return;
    }
    this.skipped.push({ path: shown, reason: 'not a file or directory' });
  }

  private async copyLinkTarget(source: string, target: string, shown: string): Promise<void> {
    const resolved = await realpath(source).catch(() => undefined);
    if (resolved === undefined) {
      this.skipped.push({ path: shown, reason: 'a broken symlink' });
      return;
    }
    if (!isInside(this.base, resolved)) {
      this.skipped.push({ path: shown, reason: 'a symlink that leads outside HOME' });
      return;
    }
    const stats = await stat(resolved);
    if (!stats.isFile()) {
      this.skipped.push({ path: shown, reason: 'a symlink to a directory' });
      return;
    }
    await copyPlainFile(resolved, target, stats.mode);
  }
}

async function copyPlainFile(source: string, target: string, mode: number): Promise<void> {
  await copyFile(source, target);
  // Owner-only, writable (the agent may rewrite its copy), executable where the original was.
  await chmod(target, mode & 0o111 ? 0o700 : 0o600);
}

function isInside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
