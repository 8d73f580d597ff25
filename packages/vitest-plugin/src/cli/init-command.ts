import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { loadSkill, SkillError } from '@gz-bench/core';
import { exampleSuite } from './example-suite.js';
import { EXIT } from './exit-codes.js';
import { parseStrict } from './parse-args.js';
import { skillSuite } from './skill-suite.js';
import { UsageError } from './usage-error.js';

/**
 * `gz-bench init [outDir]`: writes example-suite.json; `gz-bench init --skill DIR`: a skill-eval
 * suite beside the skill, `<name>.bench.json`. Never over an existing file.
 */
export async function initCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<{ skill?: string }>(args, { skill: { type: 'string' } });
  if (values.skill !== undefined) {
    if (positionals.length > 0) throw new UsageError('init --skill writes beside the skill: it takes no directory');
    return initSkill(values.skill);
  }
  if (positionals.length > 1) throw new UsageError('init takes at most one directory');
  const outDir = resolve(positionals[0] ?? '.');
  const file = join(outDir, 'example-suite.json');
  await mkdir(outDir, { recursive: true });
  await writeNew(file, `${JSON.stringify(exampleSuite(schemaReference(outDir)), null, 2)}\n`);
  const shown = relative(process.cwd(), file) || file;
  process.stdout.write(
    `wrote ${shown}\nTry it: gz-bench run ${shown} --cmd "echo done"\n` +
      `Then your agent: --cmd 'my-agent --workdir {{dir}} "{{prompt}}"', or 'my-agent < {{promptFile}}' to read the prompt on stdin\n`,
  );
  return EXIT.passed;
}

async function initSkill(given: string): Promise<number> {
  const dir = resolve(given);
  let skill: Awaited<ReturnType<typeof loadSkill>>;
  try {
    skill = await loadSkill(dir, given);
  } catch (error) {
    if (error instanceof SkillError) throw new UsageError(error.message);
    throw error;
  }
  const outDir = dirname(dir);
  const file = join(outDir, `${skill.name}.bench.json`);
  const suite = skillSuite(skill, `./${basename(dir)}`, schemaReference(outDir));
  await writeNew(file, `${JSON.stringify(suite, null, 2)}\n`);
  const shown = relative(process.cwd(), file) || file;
  process.stdout.write(
    `wrote ${shown}: arms none and current, two cases that should use ${skill.name} and one that must not\n` +
      `Make its prompts and checks your skill's own, then: gz-bench run ${shown} --agent claude-code --unsafe --trials 5\n` +
      `Compare versions with more arms: "arms": { "none": [], "v1": ["./${basename(dir)}-v1"], "v2": ["./${basename(dir)}"] }\n`,
  );
  return EXIT.passed;
}

async function writeNew(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(
        `${relative(process.cwd(), file) || file} already exists; remove it or choose another directory`,
      );
    }
    throw error;
  }
}

/** Packages that ship the suite JSON Schema, in the order a project most likely depends on them. */
const SCHEMA_PATHS = ['@gz-bench/vitest-plugin/suite.schema.json', '@gz-bench/core/suite.schema.json'];

/**
 * The suite JSON Schema of the nearest installed gz-bench package, relative to the suite, so editors
 * complete and check it offline. It goes through node_modules, never a package manager's store path,
 * so the reference survives upgrades.
 */
function schemaReference(outDir: string): string | undefined {
  for (let dir = outDir; ; dir = dirname(dir)) {
    for (const path of SCHEMA_PATHS) {
      const candidate = join(dir, 'node_modules', path);
      if (existsSync(candidate)) {
        const reference = relative(outDir, candidate).split(sep).join('/');
        return reference.startsWith('.') ? reference : `./${reference}`;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}
