import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../workspace/remove-tree.js';
import { loadArm, loadSkill, SkillError } from './load-skill.js';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-skill-')));
});
afterAll(() => removeTree(root));

async function skill(folder: string, text: string | undefined): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  if (text !== undefined) await writeFile(join(dir, 'SKILL.md'), text);
  return dir;
}

const md = (front: string) => `---\n${front}\n---\n# Body\n`;

describe('loadSkill', () => {
  it('reads the name and description of a valid skill', async () => {
    const dir = await skill('pdf', md('name: pdf\ndescription: Fill in PDF forms. Use when a PDF is mentioned.'));
    expect(await loadSkill(dir, 'skills/pdf')).toEqual({
      name: 'pdf',
      description: 'Fill in PDF forms. Use when a PDF is mentioned.',
      dir,
    });
  });

  it.each([
    [
      'no-front',
      '# just a body\n',
      'skills/no-front/SKILL.md: no front matter (a --- block with name and description first)',
    ],
    ['no-name', md('description: d'), 'skills/no-name/SKILL.md: the front matter has no name'],
    ['no-desc', md('name: no-desc'), 'skills/no-desc/SKILL.md: the front matter has no description'],
    [
      'Upper',
      md('name: Upper\ndescription: d'),
      'skills/Upper/SKILL.md: the name "Upper" must be lowercase letters, digits and single hyphens, not at either end',
    ],
    [
      'mismatch',
      md('name: other\ndescription: d'),
      'skills/mismatch/SKILL.md: the name other must match its folder, mismatch',
    ],
    [
      'a'.repeat(65),
      md(`name: ${'a'.repeat(65)}\ndescription: d`),
      `skills/${'a'.repeat(65)}/SKILL.md: the name is 65 characters long, more than 64`,
    ],
    [
      'long',
      md(`name: long\ndescription: ${'x'.repeat(1025)}`),
      'skills/long/SKILL.md: the description is 1025 characters long, more than 1024',
    ],
    ['bad-yaml', md('name: [unclosed'), 'skills/bad-yaml/SKILL.md: the front matter is not YAML'],
    ['missing', undefined, 'skills/missing/SKILL.md: not there: a skill folder holds SKILL.md'],
  ])('refuses %s in one line', async (folder, text, message) => {
    const dir = await skill(folder, text);
    const error = await loadSkill(dir, `skills/${folder}`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });

  it('says when the folder is not there', async () => {
    await expect(loadSkill(join(root, 'absent'), 'skills/absent')).rejects.toThrow(
      'skills/absent: no such skill folder',
    );
  });
});

describe('loadArm', () => {
  it('refuses two skills of one name in an arm', async () => {
    const first = await skill('one/dup', md('name: dup\ndescription: first'));
    const second = await skill('two/dup', md('name: dup\ndescription: second'));
    await expect(
      loadArm('v1', [
        { dir: first, shown: 'one/dup' },
        { dir: second, shown: 'two/dup' },
      ]),
    ).rejects.toThrow('two/dup/SKILL.md: arm "v1" has two skills named dup');
  });
});
