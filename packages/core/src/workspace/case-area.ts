import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackWorkspace } from '../process/exit-cleanup.js';
import { isCaseToken, newCaseToken, readProcessStat } from '../process/sweep.js';
import { OWNER_FILE, type OwnerRecord } from './owner-record.js';

// A case area is everything one case owns on disk, in one directory that is removed as a whole:
//   gz-bench-XXXXXX/
//     owner.json   who created it (pid + start time) and the case token, for cleanStaleAreas
//     workspace/   the agent's cwd, {{dir}}
//     home/        HOME
//     tmp/         TMPDIR
//     prompt.txt   the case prompt, {{promptFile}} (written by writePromptFile)
// The agent runs as the harness's user and can therefore change anything in here, owner.json included;
// removal and the intactness check assume the worst, but only a sandbox makes any of it trustworthy.

/** Prefix of every case area directory under the temp dir. */
export const CASE_AREA_PREFIX = 'gz-bench-';

/** One case's directories, all real paths. */
export interface CaseArea {
  /** The area itself, `<tmp>/gz-bench-XXXXXX`. */
  root: string;
  /** The agent's working directory (`{{dir}}`). */
  workspace: string;
  /** HOME for the case's commands. */
  home: string;
  /** TMPDIR for the case's commands. */
  tmp: string;
  /** Where the case prompt goes (`{{promptFile}}`): in the area, outside the workspace. */
  promptFile: string;
  /** The case token (see `CASE_TOKEN_ENV`) its commands carry. */
  token: string;
}

const untrackers = new Map<string, () => void>();

/**
 * Creates a case area under `parent` (the OS temp dir by default) for `token` (a fresh one when
 * omitted). Until `removeCaseArea`, it is also removed should the harness process exit first.
 */
export async function createCaseArea(options?: { parent?: string; token: string }): Promise<CaseArea> {
  const token = options?.token ?? newCaseToken();
  if (!isCaseToken(token)) throw new TypeError(`not a case token (32 lowercase hex digits): ${JSON.stringify(token)}`);
  // Real paths, so that symlink checks compare like with like (macOS's /var is a link to /private/var).
  const root = await realpath(await mkdtemp(join(options?.parent ?? tmpdir(), CASE_AREA_PREFIX)));
  untrackers.set(root, trackWorkspace(root, token));
  const area: CaseArea = {
    root,
    workspace: join(root, 'workspace'),
    home: join(root, 'home'),
    tmp: join(root, 'tmp'),
    promptFile: join(root, 'prompt.txt'),
    token,
  };
  try {
    await Promise.all([mkdir(area.workspace), mkdir(area.home), mkdir(area.tmp)]);
    // Last, so that a concurrent cleanStaleAreas sees either no record (and keeps out) or a whole one.
    const created = new Date().toISOString();
    await writeOwnerRecord(root, { pid: process.pid, startTime: await ownStartTime(), token, created });
  } catch (error) {
    await removeCaseArea(area).catch(() => {});
    throw error;
  }
  return area;
}

/**
 * Removes a case area and everything in it, whatever the agent did to it: directories it made
 * unreadable or unwritable (the workspace included) get owner permissions back, a workspace replaced
 * by a symlink is removed as a link and its target left untouched. Kill the case's processes first
 * (`killByToken`), or they may keep changing the tree while it is removed.
 */
export async function removeCaseArea(area: CaseArea): Promise<void> {
  untrackers.get(area.root)?.();
  untrackers.delete(area.root);
  await removeAreaDir(area.root);
}

/**
 * Keeps a case area for good (`--keep`): it is no longer removed when the process exits, and its owner
 * record goes, so that `cleanStaleAreas` leaves it alone once this process is gone. Kill the case's
 * processes (`killByToken`) before keeping it.
 */
export async function releaseCaseArea(area: CaseArea): Promise<void> {
  untrackers.get(area.root)?.();
  untrackers.delete(area.root);
  await rm(join(area.root, OWNER_FILE), { force: true });
}

/**
 * Why the workspace can no longer be trusted as the case's directory, or undefined while it is a real
 * directory in its area. Checks read through the workspace path: call this (after the case's processes
 * are dead) and fail the case on a message, before any check runs.
 */
export async function assertWorkspaceIntact(area: CaseArea): Promise<string | undefined> {
  const root = await lstat(area.root).catch((error: NodeJS.ErrnoException) => error);
  if (root instanceof Error) return root.code === 'ENOENT' ? 'the agent removed the case area' : inaccessible(root);
  if (!root.isDirectory()) return 'the agent replaced the case area';
  const workspace = await lstat(area.workspace).catch((error: NodeJS.ErrnoException) => error);
  if (workspace instanceof Error) {
    return workspace.code === 'ENOENT' ? 'the agent removed the workspace' : inaccessible(workspace);
  }
  if (workspace.isSymbolicLink()) return 'the agent replaced the workspace with a symlink';
  if (workspace.isFile()) return 'the agent replaced the workspace with a file';
  if (!workspace.isDirectory()) return 'the agent replaced the workspace with a special file';
  return undefined;
}

/** Removes a case area directory; shared with cleanStaleAreas, which knows only the path. */
export async function removeAreaDir(root: string): Promise<void> {
  try {
    await rm(root, { recursive: true, force: true, maxRetries: 2 });
    return;
  } catch {
    // Most likely EACCES below a directory the agent chmod'ed: restore access and try again.
  }
  await restoreOwnerAccess(root);
  try {
    await rm(root, { recursive: true, force: true, maxRetries: 2 });
  } catch (error) {
    // Another process cleaning the same stale area may have removed it under our feet: that is success.
    if ((await lstat(root).catch(() => undefined)) !== undefined) throw error;
  }
}

/**
 * Gives the owner rwx back on `path` and every directory below it, never following symlinks, so that
 * the tree can be listed and emptied again. Files keep their mode: unlinking needs only the parent's.
 */
export async function restoreOwnerAccess(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats?.isDirectory()) return;
  // Add to the existing bits rather than set 0o700: a shared parent must not lose its group/other bits.
  await chmod(path, (stats.mode & 0o7777) | 0o700).catch(() => {});
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  // Entry types come from readdir itself (no symlink is followed, no lstat per file): a tree of many
  // files costs one listing per directory. Directories are walked one at a time to bound open handles.
  for (const entry of entries) {
    if (entry.isDirectory()) await restoreOwnerAccess(join(path, entry.name));
  }
}

/** This process's start time, as `OwnerRecord.startTime` records it. */
export async function ownStartTime(): Promise<number> {
  const stat = process.platform === 'linux' ? await readProcessStat('self') : undefined;
  return stat?.startTime ?? Math.round(Date.now() - process.uptime() * 1000);
}

async function writeOwnerRecord(root: string, record: OwnerRecord): Promise<void> {
  // Write then rename: a reader never sees a half-written record.
  const temporary = join(root, `.${OWNER_FILE}.${randomBytes(4).toString('hex')}`);
  await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, join(root, OWNER_FILE));
}

function inaccessible(error: NodeJS.ErrnoException): string {
  return `the agent made the workspace inaccessible (${error.code ?? error.message})`;
}
