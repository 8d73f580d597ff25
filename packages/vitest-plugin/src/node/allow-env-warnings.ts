import { readFile } from 'node:fs/promises';
import { type AllowEnvSource, parseSuiteSource, type Suite, unsetAllowEnvWarnings } from '@gz-bench/core';
import type { Reporter, TestSpecification, Vitest } from 'vitest/node';
import type { SuiteFileMatcher } from './reporter.js';

/** Marks the warner, so that the plugin adds one at most, even across projects and packages. */
const GZ_BENCH_ENV_WARNER = Symbol.for('gz-bench.allow-env-warner');

/**
 * Says, once per run and before any case starts, which variables that `allowEnv` asks for the harness
 * does not have (the run's own, and those of the suites it is about to run), so that a missing API key
 * is not first seen as an agent failing to log in. Names and where they were asked for, never values.
 * Vitest awaits `onTestRunStart` before it hands any test file to a worker.
 */
export class AllowEnvWarner implements Reporter {
  readonly [GZ_BENCH_ENV_WARNER] = true;
  private vitest: Vitest | undefined;
  private readonly matchers: SuiteFileMatcher[] = [];
  private readonly runSources: AllowEnvSource[] = [];

  /** @param env The harness's environment, which every case's commands are drawn from. */
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  /**
   * A project's suite files, and the `allowEnv` of its run (each project has its own plugin): its
   * options' entries, and those of the agents it runs, each with where it was given.
   */
  addProject(matcher: SuiteFileMatcher, sources: readonly AllowEnvSource[]): void {
    this.matchers.push(matcher);
    for (const source of sources) {
      if (source.entries.length === 0) continue;
      const same = this.runSources.some(
        (known) => known.origin === source.origin && known.entries.join('\n') === source.entries.join('\n'),
      );
      if (!same) this.runSources.push(source);
    }
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    const vitest = this.vitest;
    // A merge run runs no case.
    if (!vitest || vitest.config.mergeReports) return;
    const files = new Set<string>();
    for (const spec of specifications) {
      if (this.matchers.some((matches) => matches(spec.moduleId))) files.add(spec.moduleId);
    }
    // By path, as the report orders suite files: the same run always says the same.
    const suites = await Promise.all([...files].sort().map(readSuiteQuietly));
    const sources = [...this.runSources, ...suites.flatMap((suite) => (suite ? suiteSources(suite) : []))];
    for (const line of unsetAllowEnvWarnings(sources, this.env)) vitest.logger.warn(`gz-bench: warning: ${line}`);
  }
}

/** A suite file's suite, or undefined when it is not one: its own test module says why. */
async function readSuiteQuietly(file: string): Promise<Suite | undefined> {
  try {
    return parseSuiteSource(await readFile(file, 'utf8'), file);
  } catch {
    return undefined;
  }
}

/** Where a suite asks for variables: itself (when a case inherits it) and its cases with their own. */
function suiteSources(suite: Suite): AllowEnvSource[] {
  const sources: AllowEnvSource[] = [];
  if (suite.allowEnv !== undefined && suite.cases.some((testCase) => testCase.allowEnv === undefined)) {
    sources.push({ entries: suite.allowEnv, origin: `allowEnv of suite "${suite.name}"` });
  }
  for (const testCase of suite.cases) {
    if (testCase.allowEnv === undefined) continue;
    sources.push({ entries: testCase.allowEnv, origin: `allowEnv of case "${testCase.id}" in suite "${suite.name}"` });
  }
  return sources;
}

/** The run's warner among Vitest's reporters, added unless one is there. */
export function addAllowEnvWarnerOnce(vitest: Vitest): AllowEnvWarner {
  const reporters = vitest.config.reporters as unknown[];
  const present = reporters.find(
    (entry): entry is AllowEnvWarner => typeof entry === 'object' && entry !== null && GZ_BENCH_ENV_WARNER in entry,
  );
  if (present) return present;
  const warner = new AllowEnvWarner();
  reporters.push(warner);
  return warner;
}
