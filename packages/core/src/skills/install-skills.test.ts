import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../workspace/remove-tree.js';
import { installSkills, skillEdits } from './install-skills.js';
import { loadSkill } from './load-skill.js';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-install-')));
  await mkdir(join(root, 'src', 'pdf', 'scripts'), { recursive: true });
  await writeFile(join(root, 'src', 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: PDFs.\n---\nUse fill.py.\n');
  await writeFile(join(root, 'src', 'pdf', 'scripts', 'fill.py'), 'print("fill")\n');
});
afterAll(() => removeTree(root));

describe('installSkills', () => {
  it('copies each skill where the CLI looks, in the workspace or the HOME, and tells edits apart', async () => {
    const skill = await loadSkill(join(root, 'src', 'pdf'));
    const roots = { workspace: join(root, 'ws'), home: join(root, 'home') };
    const [project] = await installSkills([skill], { scope: 'project', dir: '.claude/skills' }, roots);
    const [user] = await installSkills([skill], { scope: 'user', dir: '.agents/skills' }, roots);
    expect(project?.dir).toBe(join(roots.workspace, '.claude/skills/pdf'));
    expect(user?.dir).toBe(join(roots.home, '.agents/skills/pdf'));
    expect(await readFile(join(roots.workspace, '.claude/skills/pdf/scripts/fill.py'), 'utf8')).toBe('print("fill")\n');
    expect(Object.keys(project?.files ?? {})).toEqual(['SKILL.md', 'scripts/fill.py']);
    if (project === undefined) throw new Error('not installed');
    expect(await skillEdits(project)).toEqual([]);
    await writeFile(join(project.dir, 'SKILL.md'), 'rewritten by the agent\n');
    await rm(join(project.dir, 'scripts', 'fill.py'));
    await writeFile(join(project.dir, 'notes.txt'), 'new\n');
    expect(await skillEdits(project)).toEqual(['edited SKILL.md', 'added notes.txt', 'deleted scripts/fill.py']);
  });
});
