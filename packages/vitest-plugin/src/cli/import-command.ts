import { basename, relative, resolve } from 'node:path';
import { ImportError, importTasks } from '@gz-bench/core';
import { EXIT } from './exit-codes.js';
import { notReproducedText } from './not-reproduced.js';
import { parseStrict } from './parse-args.js';
import { loadNamedSuites } from './run-settings.js';
import { UsageError } from './usage-error.js';

interface ImportFlags {
  out?: string;
  name?: string;
}

/**
 * `gz-bench import <task dir>... [--out DIR] [--name NAME]`: Harbor and Terminal-Bench tasks written
 * out as an ordinary suite with its verifiers, solutions and starting files, for users who edit them.
 */
export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<ImportFlags>(args, {
    out: { type: 'string', short: 'o' },
    name: { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('import needs at least one task directory');
  const name = values.name ?? basename(resolve(positionals[0] as string));
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UsageError(`--name must be a plain file name (letters, digits, . _ -), got ${JSON.stringify(name)}`);
  }
  const { suites } = await loadNamedSuites(positionals);
  const outDir = resolve(values.out ?? '.');
  let written: Awaited<ReturnType<typeof importTasks>>;
  try {
    written = await importTasks(suites, { outDir, name });
  } catch (error) {
    if (error instanceof ImportError) throw new UsageError(error.message);
    throw error;
  }
  const shown = relative(process.cwd(), written.suiteFile) || written.suiteFile;
  const cases = written.cases === 1 ? '1 task' : `${written.cases} tasks`;
  process.stdout.write(`wrote ${shown} (${cases}) and ${relative(process.cwd(), written.taskDir) || '.'}/\n`);
  for (const { suite, file } of suites) process.stdout.write(await notReproducedText(shown, suite, file));
  process.stdout.write(`Prove it: gz-bench check-suite ${shown}\n`);
  return EXIT.passed;
}
