import { createHash } from 'node:crypto';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Skill, skillFiles } from './load-skill.js';

// An arm's skills go where the agent's CLI looks for them: under the workspace (project scope) or
// the trial's own HOME (user scope), after setup and before the workspace snapshot, so the agent's
// diff never counts them as its changes. What was installed is remembered by content, so a trial
// can say afterwards whether the agent edited or deleted a skill file.

/** Where a CLI discovers skills: a directory relative to the workspace or to HOME. */
export interface SkillPlacement {
  scope: 'project' | 'user';
  /** E.g. `.claude/skills`; each skill goes in `<dir>/<name>/`. */
  dir: string;
}

/** One skill as installed for a trial. */
export interface InstalledSkill {
  name: string;
  /** Its folder in the trial, absolute. */
  dir: string;
  /** sha256 of each file, by relative path. */
  files: Record<string, string>;
}

/** Copies `skills` into the trial at `placement`; `roots` are the trial's workspace and HOME. */
export async function installSkills(
  skills: readonly Skill[],
  placement: SkillPlacement,
  roots: { workspace: string; home: string },
): Promise<InstalledSkill[]> {
  const base = join(placement.scope === 'project' ? roots.workspace : roots.home, placement.dir);
  const installed: InstalledSkill[] = [];
  for (const skill of skills) {
    const dir = join(base, skill.name);
    await mkdir(base, { recursive: true });
    await cp(skill.dir, dir, { recursive: true, verbatimSymlinks: true, force: true });
    installed.push({ name: skill.name, dir, files: await hashes(dir) });
  }
  return installed;
}

/** What the agent did to an installed skill's files: each one edited, deleted or added, sorted. */
export async function skillEdits(skill: InstalledSkill): Promise<string[]> {
  const now = await hashes(skill.dir).catch(() => ({}) as Record<string, string>);
  const edits: string[] = [];
  for (const [path, hash] of Object.entries(skill.files)) {
    if (now[path] === undefined) edits.push(`deleted ${path}`);
    else if (now[path] !== hash) edits.push(`edited ${path}`);
  }
  for (const path of Object.keys(now)) if (skill.files[path] === undefined) edits.push(`added ${path}`);
  // By path, in code-unit order, as the files are listed.
  const path = (edit: string) => edit.slice(edit.indexOf(' ') + 1);
  return edits.sort((a, b) => (path(a) < path(b) ? -1 : path(a) > path(b) ? 1 : 0));
}

async function hashes(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const path of await skillFiles(dir)) {
    result[path] = createHash('sha256')
      .update(await readFile(join(dir, path)))
      .digest('hex');
  }
  return result;
}
