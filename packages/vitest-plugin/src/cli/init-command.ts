import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { exampleSuite } from './example-suite.js';
import { EXIT } from './exit-codes.js';
import { parseStrict } from './parse-args.js';
import { UsageError } from './usage-error.js';

/** `gz-bench init [outDir]`: writes example-suite.json, never over an existing file. */
export async function initCommand(args: string[]): Promise<number> {
  const { positionals } = parseStrict(args, {});
  if (positionals.length > 1) throw new UsageError('init takes at most one directory');
  const outDir = resolve(positionals[0] ?? '.');
  const file = join(outDir, 'example-suite.json');
  await mkdir(outDir, { recursive: true });
  const text = `${JSON.stringify(exampleSuite(schemaReference(outDir)), null, 2)}\n`;
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
  const shown = relative(process.cwd(), file) || file;
  process.stdout.write(
    `wrote ${shown}\nTry it: gz-bench run ${shown} --cmd "echo done"\n` +
      `Then your agent: --cmd 'my-agent --workdir {{dir}} "{{prompt}}"', or 'my-agent < {{promptFile}}' to read the prompt on stdin\n`,
  );
  return EXIT.passed;
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
