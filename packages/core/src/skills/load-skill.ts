import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

// A skill is a folder in the Agent Skills layout: SKILL.md, whose YAML front matter has the skill's
// `name` and `description`, and optional scripts/, references/ and assets/. The standard's rules are
// checked here, each refusal one line naming the file: nothing runs with a skill that breaks them.

/** A skill folder, read and checked. */
export interface Skill {
  name: string;
  description: string;
  /** The folder, absolute. */
  dir: string;
}

/** Raised for a folder that is not a valid skill; the message is one line naming the file. */
export class SkillError extends Error {
  override name = 'SkillError';
}

/** The longest name and description the Agent Skills standard allows. */
export const MAX_SKILL_NAME = 64;
export const MAX_SKILL_DESCRIPTION = 1024;

/** Why `name` breaks the standard's rules for the folder `folder`, or undefined. */
export function skillNameProblem(name: string, folder: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > MAX_SKILL_NAME) return `the name is ${name.length} characters long, more than ${MAX_SKILL_NAME}`;
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) {
    return `the name ${JSON.stringify(name)} must be lowercase letters, digits and single hyphens, not at either end`;
  }
  if (name !== folder) return `the name ${name} must match its folder, ${folder}`;
  return undefined;
}

/** Reads and checks the skill in `dir` (absolute). `shown` is how messages name it. */
export async function loadSkill(dir: string, shown: string = dir): Promise<Skill> {
  const file = `${shown.replace(/\/+$/, '')}/SKILL.md`;
  const stats = await lstat(dir).catch(() => undefined);
  if (stats === undefined) throw new SkillError(`${shown}: no such skill folder`);
  if (!stats.isDirectory()) throw new SkillError(`${shown}: a skill is a folder holding SKILL.md`);
  const text = await readFile(join(dir, 'SKILL.md'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new SkillError(
      `${file}: ${error.code === 'ENOENT' ? 'not there: a skill folder holds SKILL.md' : error.code}`,
    );
  });
  const front = await frontMatter(text, file);
  const name = front.name;
  const description = front.description;
  if (typeof name !== 'string') throw new SkillError(`${file}: the front matter has no name`);
  if (typeof description !== 'string' || description.trim() === '') {
    throw new SkillError(`${file}: the front matter has no description`);
  }
  const problem = skillNameProblem(name, basename(dir));
  if (problem !== undefined) throw new SkillError(`${file}: ${problem}`);
  if (description.length > MAX_SKILL_DESCRIPTION) {
    throw new SkillError(
      `${file}: the description is ${description.length} characters long, more than ${MAX_SKILL_DESCRIPTION}`,
    );
  }
  return { name, description, dir };
}

/** The YAML mapping between the leading `---` lines of SKILL.md. */
async function frontMatter(text: string, file: string): Promise<Record<string, unknown>> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (match === null) throw new SkillError(`${file}: no front matter (a --- block with name and description first)`);
  const { parse } = await import('yaml');
  let data: unknown;
  try {
    data = parse(match[1] as string);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new SkillError(`${file}: the front matter is not YAML: ${reason}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new SkillError(`${file}: the front matter must be a mapping of name and description`);
  }
  return data as Record<string, unknown>;
}

/** The skills of one arm, each folder once: two skills of one name are refused. */
export async function loadArm(arm: string, dirs: readonly { dir: string; shown: string }[]): Promise<Skill[]> {
  const skills: Skill[] = [];
  for (const { dir, shown } of dirs) {
    const skill = await loadSkill(dir, shown);
    const twin = skills.find((other) => other.name === skill.name);
    if (twin !== undefined) {
      throw new SkillError(
        `${shown}/SKILL.md: arm "${arm}" has two skills named ${skill.name} (the other is ${twin.dir})`,
      );
    }
    skills.push(skill);
  }
  return skills;
}

/** Every file of a skill folder, relative paths with `/`, for installing and for telling edits apart. */
export async function skillFiles(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await skillFiles(dir, path)));
    else files.push(path);
  }
  return files.sort();
}
