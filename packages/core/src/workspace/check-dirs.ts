import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { KEPT_FILE, OWNER_FILE } from './area-files.js';
import type { CaseArea } from './case-area.js';
import { removeTree } from './remove-tree.js';

// The checks' HOME and temp dir. A HOME is configuration for nearly every tool a check starts: Python
// imports `usercustomize`, `sitecustomize` and `.pth` files from the user site under it, npm and yarn
// read `~/.npmrc` (`script-shell=`, `node-options=`) and `~/.yarnrc`, pip its `~/.config/pip`, shells
// their start-up files, anything else `$XDG_CONFIG_HOME` (which defaults to `~/.config`). An agent that
// shares its HOME with the checks can make a hidden verifier pass without solving anything, so the
// checks get directories of their own, made only once the agent's whole process tree is dead.

/** Names of the checks' HOME and temp dir in a case area. */
export const CHECK_HOME_ENTRY = 'check-home';
export const CHECK_TMP_ENTRY = 'check-tmp';

/** The overlay directories of a case in an image, whose checks run in the image as the agent left it. */
export const IMAGE_ENTRY = 'image';

/** Entries of the area root the harness makes; anything else there was left by the case's commands. */
const AREA_ENTRIES = new Set([
  'workspace',
  'home',
  'tmp',
  'prompt.txt',
  'agent-stdout',
  IMAGE_ENTRY,
  OWNER_FILE,
  KEPT_FILE,
]);

/** The checks' own directories, beside the workspace. */
export interface CheckDirs {
  home: string;
  tmp: string;
}

/**
 * Call once the agent's whole process tree is dead, before the checks. Removes whatever the case's
 * commands left in the area root beside the harness's own entries (a `check-home` or `verify` made in
 * advance, a `conftest.py` or `pytest.ini` a tool would find by searching upwards from the verifiers),
 * then makes the checks' HOME and temp dir, empty. Nothing of the agent runs any more, so nothing can
 * write into them before the checks do.
 */
export async function createCheckDirs(area: CaseArea): Promise<CheckDirs> {
  for (const name of await readdir(area.root)) {
    if (!AREA_ENTRIES.has(name)) await removeTree(join(area.root, name));
  }
  const dirs = { home: join(area.root, CHECK_HOME_ENTRY), tmp: join(area.root, CHECK_TMP_ENTRY) };
  // Not recursive: an entry that is there after all is an error, never a directory to reuse.
  await mkdir(dirs.home, { mode: 0o700 });
  await mkdir(dirs.tmp, { mode: 0o700 });
  return dirs;
}
