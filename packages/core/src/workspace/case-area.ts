import { mkdirSync, writeFileSync } from 'node:fs';
import { lstat, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackWorkspace } from '../process/exit-cleanup.js';
import { isCaseToken, newCaseToken } from '../process/sweep.js';
import { KEPT_FILE, OWNER_FILE } from './area-files.js';
import { createOwnedDir, ownStartTime } from './owned-dirs.js';
import type { OwnerRecord } from './owner-record.js';
import { removeTree } from './remove-tree.js';

// A case area is everything one case owns on disk, in one directory that is removed as a whole:
//   gz-bench-<pid>-<start time>-XXXXXX/   named after the process that created it (owned-dirs.ts)
//     owner.json   the same owner and the case token, for cleanStaleAreas to kill leftovers by
//     kept.json    only in an area kept for the user (--keep): never removed by cleanStaleAreas
//     workspace/   the agent's cwd, {{dir}}
//     home/        HOME
//     tmp/         TMPDIR
//     prompt.txt   the case prompt, {{promptFile}} (written by writePromptFile)
//     verify/      hidden verifiers, {{verify}}: only after the agent (integrity/verifiers.ts)
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
  const root = await createOwnedDir(options?.parent ?? tmpdir(), 'area');
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
    // A few small calls on the temp dir, made synchronously: each takes microseconds, less than a trip
    // through libuv's thread pool, and every case waits for its area (with the prompt file and the
    // case HOME's git config, 1.06 → 0.35 ms a case on 2 cores).
    mkdirSync(area.workspace);
    mkdirSync(area.home);
    mkdirSync(area.tmp);
    // Before any command runs, so that cleanStaleAreas can kill by the token whatever the case starts.
    const created = new Date().toISOString();
    writeOwnerRecord(root, { pid: process.pid, startTime: await ownStartTime(), token, created });
  } catch (error) {
    await removeCaseArea(area).catch(() => {});
    throw error;
  }
  return area;
}

/**
 * Removes a case area and everything in it, whatever the agent did to it (see `removeTree`): any
 * permissions, any depth; a workspace replaced by a symlink is removed as a link and its target left
 * untouched. Kill the case's processes first (`killByToken`), or they may keep changing the tree while
 * it is removed. Throws a RemoveTreeError when the area remains; it then stays tracked, to be removed
 * when this process ends, and its name still tells cleanStaleAreas whose it was.
 */
export async function removeCaseArea(area: CaseArea): Promise<void> {
  await removeTree(area.root);
  untrackers.get(area.root)?.();
  untrackers.delete(area.root);
}

/**
 * Keeps a case area for good (`--keep`): it is no longer removed when the process exits, it is marked
 * kept (`kept.json`), so that `cleanStaleAreas` never removes it, and its owner record goes. Kill the
 * case's processes (`killByToken`) before keeping it.
 */
export async function releaseCaseArea(area: CaseArea): Promise<void> {
  // The mark first: an area without it whose owner is gone is stale, whatever else it holds. Only
  // into the real area: one the agent removed or replaced by a link has nothing left to keep.
  if ((await lstat(area.root).catch(() => undefined))?.isDirectory()) {
    await writeFile(join(area.root, KEPT_FILE), `${JSON.stringify({ kept: new Date().toISOString() })}\n`);
  }
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

function writeOwnerRecord(root: string, record: OwnerRecord): void {
  // One write, no temp file and rename: a reader that finds it half-written (its harness died in the
  // middle) takes it for missing, which is what the rename would have left, and judges the area by its
  // name. 'wx': into a fresh area only, never through anything already there.
  writeFileSync(join(root, OWNER_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
}

function inaccessible(error: NodeJS.ErrnoException): string {
  return `the agent made the workspace inaccessible (${error.code ?? error.message})`;
}
