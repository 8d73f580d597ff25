import { isAbsolute, relative, resolve } from 'node:path';
import type { Arm, Suite } from '../suite/schema.js';
import type { SkillPlacement } from './install-skills.js';
import { loadArm, type Skill, SkillError } from './load-skill.js';

/** The arm every other is compared with, unless one is named. */
export const DEFAULT_BASELINE_ARM = 'none';

/** An arm of a run, its skills read and checked. */
export interface LoadedArm {
  name: string;
  scope: SkillPlacement['scope'];
  skills: Skill[];
}

/** A run's arms and the one the others are compared with. */
export interface ArmSet {
  arms: LoadedArm[];
  baseline: string;
}

/**
 * Reads and checks every skill of `arms`, whose folders are relative to `base`: the first bad one
 * throws a SkillError of one line naming its file, shown relative to the current directory.
 */
export async function loadArms(arms: Record<string, Arm>, base: string, baselineArm?: string): Promise<ArmSet> {
  const loaded: LoadedArm[] = [];
  for (const [name, arm] of Object.entries(arms)) {
    const folders = Array.isArray(arm) ? arm : arm.skills;
    const dirs = folders.map((folder) => {
      const dir = resolve(base, folder);
      const shown = relative(process.cwd(), dir);
      return { dir, shown: shown === '' || shown.startsWith('..') || isAbsolute(shown) ? dir : shown };
    });
    const scope = Array.isArray(arm) ? 'project' : (arm.scope ?? 'project');
    loaded.push({ name, scope, skills: await loadArm(name, dirs) });
  }
  return { arms: loaded, baseline: baselineArmName(Object.keys(arms), baselineArm) };
}

/** The named baseline arm, else `none` where there is one, else the first. */
export function baselineArmName(names: readonly string[], named?: string): string {
  if (named !== undefined) {
    if (!names.includes(named)) throw new SkillError(`baselineArm "${named}" names no arm (${names.join(', ')})`);
    return named;
  }
  return names.includes(DEFAULT_BASELINE_ARM) ? DEFAULT_BASELINE_ARM : (names[0] ?? DEFAULT_BASELINE_ARM);
}

/**
 * A `skillUsed` check naming a skill that no arm installs can only ever pass: refused, so that a
 * misspelt name is not a check that cannot fail.
 */
export function unknownSkillProblem(suite: Pick<Suite, 'cases'>, set: ArmSet | undefined): string | undefined {
  const known = new Set(set?.arms.flatMap((arm) => arm.skills.map((skill) => skill.name)) ?? []);
  for (const testCase of suite.cases) {
    for (const check of testCase.checks) {
      if (check.kind !== 'skillUsed' || known.has(check.skill)) continue;
      const where = `case "${testCase.id}": skillUsed names the skill ${check.skill}`;
      return known.size === 0
        ? `${where}, but the run has no arms with skills`
        : `${where}, which no arm installs (${[...known].sort().join(', ')})`;
    }
  }
  return undefined;
}
