import { dirname, relative, resolve } from 'node:path';
import {
  ARM_NAME,
  ARM_NAME_RULE,
  type Arm,
  loadArms,
  SkillError,
  type Suite,
  unknownSkillProblem,
} from '@gz-bench/core';
import { UsageError } from './usage-error.js';

/** The run's arms from `--arm`, `--baseline-arm` and `--skill-scope`. */
export interface ArmFlags {
  arms: Record<string, Arm> | undefined;
  baselineArm: string | undefined;
}

const FORM = 'write --arm NAME=SKILL_DIR[,SKILL_DIR…], or --arm none= for an arm without skills';

/**
 * Reads `--arm NAME=DIR[,DIR…]` (folders named from the current directory, made absolute),
 * `--baseline-arm NAME` and `--skill-scope project|user`, which applies to every `--arm`.
 */
export function armFlags(values: { arm?: string[]; 'baseline-arm'?: string; 'skill-scope'?: string }): ArmFlags {
  const given = values.arm ?? [];
  const scope = values['skill-scope'];
  if (scope !== undefined && scope !== 'project' && scope !== 'user') {
    throw new UsageError(`--skill-scope takes project or user, got "${scope}"`);
  }
  if (given.length === 0) {
    if (values['baseline-arm'] !== undefined) throw new UsageError('--baseline-arm needs --arm to pick from');
    if (scope !== undefined) throw new UsageError('--skill-scope needs --arm: it says where their skills go');
    return { arms: undefined, baselineArm: undefined };
  }
  const arms: Record<string, Arm> = {};
  for (const flag of given) {
    const equals = flag.indexOf('=');
    if (equals <= 0) throw new UsageError(`--arm "${flag}": ${FORM}`);
    const name = flag.slice(0, equals).trim();
    if (!ARM_NAME.test(name)) {
      throw new UsageError(`--arm "${flag}": ${ARM_NAME_RULE}`);
    }
    if (Object.hasOwn(arms, name)) throw new UsageError(`--arm: two arms are named "${name}"`);
    const skills = flag
      .slice(equals + 1)
      .split(',')
      .map((dir) => dir.trim())
      .filter((dir) => dir !== '')
      .map((dir) => resolve(dir));
    arms[name] = scope === undefined ? skills : { skills, scope };
  }
  const baselineArm = values['baseline-arm'];
  if (baselineArm !== undefined && !Object.hasOwn(arms, baselineArm)) {
    throw new UsageError(`--baseline-arm "${baselineArm}" names no --arm (${Object.keys(arms).join(', ')})`);
  }
  return { arms, baselineArm };
}

/**
 * Reads and checks every skill the run will install, before anything runs: the run's own arms, else
 * each suite's (relative to its file). A bad skill, or a `skillUsed` check that names a skill no arm
 * installs, is one line naming its file.
 */
export async function assertArmsLoad(
  flags: ArmFlags,
  suites: ReadonlyArray<{ file: string; suite: Suite }>,
): Promise<void> {
  try {
    const run = flags.arms === undefined ? undefined : await loadArms(flags.arms, process.cwd(), flags.baselineArm);
    for (const { file, suite } of suites) {
      const set =
        run ?? (suite.arms === undefined ? undefined : await loadArms(suite.arms, dirname(file), suite.baselineArm));
      const problem = unknownSkillProblem(suite, set);
      if (problem !== undefined) throw new UsageError(`${relative(process.cwd(), file)}: ${problem}`);
    }
  } catch (error) {
    if (error instanceof SkillError) throw new UsageError(error.message);
    throw error;
  }
}
