import { cp, lstat, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { globRegExp } from '../changes/exclude.js';
import { installMerged, settingPaths } from '../integrity/verifiers.js';
import type { LoadedSuite } from '../suite/load.js';
import { type Case, CaseSchema } from '../suite/schema.js';

/** Where `importTasks` writes, and what the suite is called. */
export interface ImportTarget {
  /** The directory the suite file and its tasks' directory go in. */
  outDir: string;
  /** The suite's name: the file is `<name>.bench.json`, the tasks' files are in `<name>/`. */
  name: string;
}

/** What `importTasks` wrote. */
export interface ImportedSuite {
  suiteFile: string;
  /** The directory of the tasks' verifiers, solutions and starting files. */
  taskDir: string;
  cases: number;
}

/**
 * Writes loaded task suites out as one ordinary suite a user can edit: `<name>.bench.json`, and per
 * case `<name>/<id>/tests` (its verifiers merged), `solution` and `files`. The cases keep what they
 * are (layout "task", their check, solution and timeouts), with paths to the copies. Refuses to write
 * over anything: the suite file and the tasks' directory must not exist.
 */
export async function importTasks(suites: readonly LoadedSuite[], target: ImportTarget): Promise<ImportedSuite> {
  const suiteFile = join(target.outDir, `${target.name}.bench.json`);
  const taskDir = join(target.outDir, target.name);
  for (const path of [suiteFile, taskDir]) {
    if (await exists(path))
      throw new ImportError(`${path} already exists; remove it or choose another --out or --name`);
  }
  const seen = new Set<string>();
  const cases: Case[] = [];
  for (const { suite, file } of suites) {
    const from = (path: string) => resolve(dirname(file), path);
    for (const testCase of suite.cases) {
      if (/[/\\\0]/.test(testCase.id) || testCase.id === '.' || testCase.id === '..') {
        throw new ImportError(
          `the case ${JSON.stringify(testCase.id)} cannot name a directory; import task directories`,
        );
      }
      if (seen.has(testCase.id)) throw new ImportError(`two tasks are named ${testCase.id}; import them apart`);
      seen.add(testCase.id);
      const own = join(taskDir, testCase.id);
      const rel = (path: string) => `${target.name}/${testCase.id}/${path}`;
      await mkdir(own, { recursive: true });
      const copied: Case = { ...testCase };
      const verify = settingPaths(testCase.verify);
      if (verify.length > 0) {
        await installMerged(verify.map(from), join(own, 'tests'));
        copied.verify = rel('tests');
      }
      const solution = settingPaths(testCase.solutionFiles);
      if (solution.length > 0) {
        await installMerged(solution.map(from), join(own, 'solution'));
        copied.solutionFiles = rel('solution');
      }
      if (testCase.files !== undefined) {
        copied.files = [];
        for (const [index, entry] of testCase.files.entries()) {
          // A directory per entry: the copy keeps its name, which a COPY into a directory goes by.
          const name = `files/${index + 1}/${basename(entry.from)}`;
          await mkdir(join(own, 'files', String(index + 1)), { recursive: true });
          await cp(from(entry.from), join(own, name), { recursive: true, verbatimSymlinks: true });
          copied.files.push({ from: rel(name), to: entry.to });
        }
      }
      if (testCase.environment?.dockerfile !== undefined) {
        copied.environment = await copyEnvironment(testCase.environment, from, join(own, 'environment'), rel);
      }
      // The task's origin, as the new suite file sees it.
      if (copied.meta?.task !== undefined) {
        const origin = relative(target.outDir, from(String(copied.meta.task)))
          .split(sep)
          .join('/');
        copied.meta = { ...copied.meta, task: origin };
      }
      cases.push(inSchemaOrder(copied));
    }
  }
  await mkdir(target.outDir, { recursive: true });
  await writeFile(suiteFile, `${JSON.stringify({ name: target.name, cases }, null, 2)}\n`, { flag: 'wx' });
  return { suiteFile, taskDir, cases: cases.length };
}

// What a person reads first: the task, then how it is checked and solved, then where it runs.
const LEADING_KEYS = ['id', 'prompt', 'checks', 'verify', 'solution', 'solutionFiles', 'layout', 'workdir', 'files'];

/** The case's fields as a person reads them: LEADING_KEYS, then the rest in the schema's order. */
function inSchemaOrder(testCase: Case): Case {
  const order = [...LEADING_KEYS, ...Object.keys(CaseSchema.shape).filter((key) => !LEADING_KEYS.includes(key))];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(Object.entries(testCase).sort(([a], [b]) => rank(a) - rank(b))) as Case;
}

type Environment = NonNullable<Case['environment']>;

/**
 * Copies a Dockerfile environment's build context to `to`, less what it ignores, and names the copy:
 * the suite then builds the same image from its own files. The Dockerfile goes with the context
 * (beside it when it lies outside).
 */
async function copyEnvironment(
  environment: Environment,
  from: (path: string) => string,
  to: string,
  rel: (path: string) => string,
): Promise<Environment> {
  const dockerfile = from(environment.dockerfile as string);
  const context = from(environment.context ?? dirname(environment.dockerfile as string));
  const ignored = (environment.ignore ?? []).map((pattern) => globRegExp(pattern.replace(/\/+$/, '')));
  await cp(context, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (path) => {
      const inside = relative(context, path).split(sep).join('/');
      return inside === '' || !ignored.some((pattern) => pattern.test(inside));
    },
  });
  const inside = relative(context, dockerfile).split(sep).join('/');
  const within = inside !== '' && !inside.startsWith('../') && !isAbsolute(inside);
  if (!within) await cp(dockerfile, join(to, 'Dockerfile.gz-bench'));
  const { ignore: _copiedWithout, ...rest } = environment;
  return {
    ...rest,
    dockerfile: rel(`environment/${within ? inside : 'Dockerfile.gz-bench'}`),
    context: rel('environment'),
  };
}

/** An import that cannot be written as asked; the CLI exits 2 with its message. */
export class ImportError extends Error {
  override name = 'ImportError';
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}
