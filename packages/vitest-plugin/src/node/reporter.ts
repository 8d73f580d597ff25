import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  buildReport,
  type Report,
  type ReportResult,
  renderJson,
  renderProgressLine,
  renderTable,
} from '@gz-bench/core';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { collectModuleResults, type ModuleResults } from './collect-results.js';
import { packageVersion } from './package-version.js';

/** Options of the gz-bench reporter. */
export interface GzBenchReporterOptions {
  /** Path of the JSON report, relative to the Vitest root; `false` writes none. */
  report: string | false;
  /** Print the table after Vitest's own output. */
  table: boolean;
  /** Receives each finished report (the CLI prints it as JSON). */
  onReport?: (report: Report) => void;
}

/** Tells suite files from other test files; the plugin that serves them sets it. */
export type SuiteFileMatcher = (file: string) => boolean;

/** Marks reporters made by gz-bench, so the plugin adds one at most, even across projects and packages. */
export const GZ_BENCH_REPORTER = Symbol.for('gz-bench.reporter');

/**
 * Builds the gz-bench report at the end of every run from the cases' `task.meta`, which survives blob
 * shards and `--merge-reports`. Keeps the latest result of every case across watch re-runs.
 */
export class GzBenchReporter implements Reporter {
  readonly [GZ_BENCH_REPORTER] = true;
  private vitest: Vitest | undefined;
  private readonly modules = new Map<string, ModuleResults>();
  private readonly matchers: SuiteFileMatcher[] = [];

  constructor(private readonly options: GzBenchReporterOptions) {}

  /** Counts the files that a plugin instance serves as suites (one per Vitest project). */
  addSuiteMatcher(matcher: SuiteFileMatcher): void {
    this.matchers.push(matcher);
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    // Vitest's live display shows running tests on a terminal; in CI logs, where it prints whole files
    // only, a line per finished case shows progress through long agent runs.
    if (!this.options.table || process.stdout.isTTY || !this.vitest) return;
    const result = testCase.meta().gzBench;
    if (!result) return;
    const suite = testCase.parent.type === 'suite' ? testCase.parent.name : '';
    this.vitest.logger.log(renderProgressLine({ ...result, suite, file: testCase.module.relativeModuleId }));
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const vitest = this.vitest;
    // A shard's results are partial: the merge run reports them whole.
    if (!vitest || (vitest.config.shard && !vitest.config.mergeReports)) return;
    const isSuiteFile = (file: string) => this.matchers.some((matches) => matches(file));
    for (const module of testModules) {
      const results = collectModuleResults(module, isSuiteFile);
      if (results) this.remember(results);
    }
    const errors = [...this.modules.values()].flatMap((m) => m.errors.map((message) => ({ file: m.file, message })));
    const report = buildReport(
      this.rows(),
      { gzBenchVersion: packageVersion(), vitestVersion: vitest.version },
      errors,
    );
    if (this.options.report !== false) {
      const path = resolve(vitest.config.root, this.options.report);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, renderJson(report));
    }
    this.options.onReport?.(report);
    if (this.options.table && (report.results.length > 0 || errors.length > 0)) {
      vitest.logger.log(`\n${renderTable(report, { color: useColor() })}`);
    }
  }

  private remember(latest: ModuleResults): void {
    const previous = this.modules.get(latest.file);
    // In watch mode a re-run may skip cases (`-t`): they keep their last result, unless the suite no longer has them.
    const results = new Map<string, ReportResult>();
    for (const id of latest.caseIds) {
      const result = latest.results.get(id) ?? previous?.results.get(id);
      if (result) results.set(id, result);
    }
    this.modules.set(latest.file, { ...latest, results });
  }

  private rows(): ReportResult[] {
    return [...this.modules.values()].flatMap((m) => m.caseIds.flatMap((id) => m.results.get(id) ?? []));
  }
}

function useColor(): boolean {
  return process.stdout.isTTY === true && !('NO_COLOR' in process.env);
}
