import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isBaselinePath, suitePathOf } from '../baseline/baseline-file.js';
import { expandFamilies } from '../families/expand.js';
import { isTaskFile } from '../tasks/find-tasks.js';
import { suiteTaskCases, taskSuiteData } from '../tasks/load-tasks.js';
import { invalidJsonError, readSuiteError, SuiteError, type SuiteOrigin } from './errors.js';
import { checkFixtures } from './fixtures.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { createLineIndex, stripBom } from './position.js';
import type { Suite } from './schema.js';
import { validateFrom } from './validate.js';
import { checkVerifyDirs } from './verify-dirs.js';

/** Options of `loadSuite` and `parseSuiteSource`. */
export interface LoadSuiteOptions {
  /** Directory a relative suite path resolves against. @default process.cwd() */
  cwd?: string | undefined;
  /** How error messages name the file, e.g. relative to the Vitest root. @default the file as given */
  displayPath?: string | undefined;
}

/** A suite read from disk: the validated suite, its absolute path and its text (BOM stripped). */
export interface LoadedSuite {
  suite: Suite;
  /** Absolute path of the suite file. */
  file: string;
  /** The file's text without a BOM: what `locateCases` and source maps index into. */
  source: string;
}

/**
 * Reads, parses and validates a suite file, and checks the fixture repositories and protected paths it
 * names; rejects with a SuiteError for every way it can be unusable.
 */
export async function loadSuite(file: string, options: LoadSuiteOptions = {}): Promise<LoadedSuite> {
  const origin = originOf(file, options);
  if (isBaselinePath(origin.absoluteFile)) throw notASuite(origin);
  // Harbor and Terminal-Bench tasks load as they are: a task's file, its directory, a directory of them.
  if (isTaskFile(origin.absoluteFile) || (await isDirectory(origin.absoluteFile))) return loadTasks(origin);
  let text: string;
  try {
    text = await readFile(origin.absoluteFile, 'utf8');
  } catch (error) {
    throw readSuiteError(error, origin);
  }
  let loaded = fromText(text, origin);
  if (loaded.suite.tasks !== undefined) loaded = await withTasks(loaded, origin);
  await checkFixtures(loaded.suite, origin);
  await checkVerifyDirs(loaded.suite, origin);
  return loaded;
}

/** Parses and validates suite text already in memory (a BOM is ignored); `file` only names it in errors. */
export function parseSuiteSource(source: string, file?: string, options: LoadSuiteOptions = {}): Suite {
  const origin: SuiteOrigin = file === undefined ? {} : originOf(file, options);
  return parse(stripBom(source), origin);
}

function originOf(file: string, options: LoadSuiteOptions): Required<SuiteOrigin> {
  return { file: options.displayPath ?? file, absoluteFile: resolve(options.cwd ?? process.cwd(), file) };
}

function fromText(text: string, origin: Required<SuiteOrigin>): LoadedSuite {
  const source = stripBom(text);
  return { suite: parse(source, origin), file: origin.absoluteFile, source };
}

function parse(source: string, origin: SuiteOrigin): Suite {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    throw jsonError(source, error, origin);
  }
  return validated(data, origin, source);
}

function validated(data: unknown, origin: SuiteOrigin, source: string): Suite {
  const result = validateFrom(data, origin, source);
  if (!result.ok) throw result.error;
  // Families become cases here, so that everything after loading sees cases only.
  return expandFamilies(result.suite);
}

/** A suite of task directories: validated like a suite file, its `source` the task file's text or none. */
async function loadTasks(origin: Required<SuiteOrigin>): Promise<LoadedSuite> {
  const data = await taskSuiteData(origin);
  const source = isTaskFile(origin.absoluteFile) ? await readFile(origin.absoluteFile, 'utf8') : '';
  const suite = validated(data, origin, '');
  await checkVerifyDirs(suite, origin);
  return { suite, file: origin.absoluteFile, source: stripBom(source) };
}

/** The suite with its `tasks` entries read as cases after its own, then validated again as a whole. */
async function withTasks(loaded: LoadedSuite, origin: Required<SuiteOrigin>): Promise<LoadedSuite> {
  const data = JSON.parse(loaded.source) as Record<string, unknown> & { cases: unknown[] };
  const ids = loaded.suite.cases.map((testCase) => testCase.id);
  const { tasks, ...rest } = data;
  const cases = [...data.cases, ...(await suiteTaskCases(loaded.suite.tasks ?? [], origin, ids))];
  return { ...loaded, suite: validated({ ...rest, cases }, origin, '') };
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/** A SuiteError for text JSON.parse rejected, with the line and column an editor shows (1-based). */
function jsonError(source: string, cause: unknown, origin: SuiteOrigin): SuiteError {
  const locate = createLineIndex(source);
  const oneBased = (offset: number) => {
    const { line, column } = locate(offset);
    return { line, column: column + 1 };
  };
  const problem = findJsonSyntaxError(source);
  if (problem !== undefined) return invalidJsonError(oneBased(problem.offset), problem.reason, origin, cause);
  // Our scanner gave up (absurd nesting) or accepted what V8 rejected: use V8's words and position,
  // minus the echo of the source that newer V8 versions append.
  const message = cause instanceof Error ? cause.message : String(cause);
  const position = /at position (\d+)/.exec(message)?.[1];
  const reason = message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return invalidJsonError(position === undefined ? undefined : oneBased(Number(position)), reason, origin, cause);
}

/** A baseline file given where a suite belongs (a `bench/*.json` glob, a slip of the tab key). */
function notASuite(origin: Required<SuiteOrigin>): SuiteError {
  return new SuiteError({
    code: 'GZ_BENCH_NOT_A_SUITE',
    file: origin.file,
    absoluteFile: origin.absoluteFile,
    detail: `this is a baseline file, not a suite: name its suite ${suitePathOf(origin.file)} instead`,
  });
}
