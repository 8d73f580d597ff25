import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  buildReport,
  buildScoreboard,
  buildSweep,
  type CellRule,
  columnName,
  notRunResult,
  type Report,
  type ReportResult,
  renderJson,
  renderProgressLine,
  renderScoreboard,
  renderScoreboardMarkdown,
  renderSweep,
  renderSweepMarkdown,
  renderTable,
  suiteColumns,
  summarizeBaseline,
} from '@gz-bench/core';
import type {
  Reporter,
  SerializedError,
  TestCase,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node';
import { isBaselineUpdate } from './baseline-update.js';
import { type SuiteCells, settleBaselines } from './baseline-writer.js';
import { caseMatcher } from './case-filter.js';
import { caseLabels, cellKey, collectModuleResults, type ModuleResults } from './collect-results.js';
import { writeHtmlReport } from './html-report.js';
import { notRunReason, type RunEnd } from './not-run-reason.js';
import { packageVersion } from './package-version.js';
import { type PlannedSuite, planSuite, selectedCases } from './planned-suites.js';
import { withEarlierPasses } from './rerun-report.js';
import { appendStepSummary } from './step-summary.js';

/** The columns and trials of a run's cells. */
export interface RunCells {
  agents: readonly string[];
  /** The run's own arms, which replace the suites'; `[]` for none at all; undefined: each suite's own. */
  arms?: readonly string[];
  trials: number;
}

/** Options of the gz-bench reporter. */
export interface GzBenchReporterOptions {
  /** Path of the JSON report, relative to the Vitest root; `false` writes none. */
  report: string | false;
  /** Print the table after Vitest's own output. */
  table: boolean;
  /** Print a line per finished case where Vitest has no live display. @default the value of `table` */
  progress?: boolean;
  /** Receives each finished report (the CLI prints it as JSON). */
  onReport?: (report: Report) => void;
  /**
   * Suite files (absolute) whose every case must be in the report, whether or not Vitest lists them:
   * those it never ran are rows that did not run. The CLI names all the files it was given.
   */
  suiteFiles?: readonly string[];
  /**
   * The names of the run's agents (none for the one `cmd`), of its own arms where it names them
   * (they replace the suites'; `[]`: none at all), and the trials of each cell.
   */
  cells?: RunCells;
  /** When a cell of several trials passes. @default 'majority' */
  passRule?: CellRule;
  /** The arm every other is compared with; default: the suites' own `baselineArm`, else `none`, else the first. */
  baselineArm?: string | undefined;
  /** The cases the run selects (`cases`, `--case`): the others are neither planned nor reported. */
  cases?: readonly string[] | undefined;
  /**
   * Path of the Markdown scoreboard, relative to the Vitest root, also appended to
   * `$GITHUB_STEP_SUMMARY` when that is set; `false` or absent writes none.
   */
  markdown?: string | false;
  /** Path of the HTML page of the report, relative to the Vitest root; `false` or absent writes none. */
  html?: string | false;
}

/** Tells suite files from other test files; the plugin that serves them sets it. */
export type SuiteFileMatcher = (file: string) => boolean;

/** Marks reporters made by gz-bench, so the plugin adds one at most, even across projects and packages. */
export const GZ_BENCH_REPORTER = Symbol.for('gz-bench.reporter');

/**
 * Builds the gz-bench report at the end of every run from the cases' `task.meta`, which survives blob
 * shards and `--merge-reports`. Keeps the latest result of every case across watch re-runs. Every case
 * that the run meant to run is in the report: one whose worker died, or that a cancelled run never
 * reached, is a row that did not run, and such a report never passes.
 */
export class GzBenchReporter implements Reporter {
  readonly [GZ_BENCH_REPORTER] = true;
  private vitest: Vitest | undefined;
  private readonly modules = new Map<string, ModuleResults>();
  private readonly matchers: SuiteFileMatcher[] = [];
  /** This run's suite files, read as it started, by module id. */
  private planning: Promise<Map<string, PlannedSuite>> = Promise.resolve(new Map());
  /** The suite name of every suite file seen, by file, to tell apart suites of the same name. */
  private readonly suiteNames = new Map<string, string>();
  /** The rows of the earlier report a resumed run (`onlyFailed`) completes. */
  private earlier: readonly ReportResult[] = [];

  constructor(private readonly options: GzBenchReporterOptions) {}

  /** Counts the files that a plugin instance serves as suites (one per Vitest project). */
  addSuiteMatcher(matcher: SuiteFileMatcher): void {
    this.matchers.push(matcher);
  }

  /** A resumed run: a trial that did not run this time keeps its earlier passing row. */
  keepEarlierPasses(rows: readonly ReportResult[]): void {
    this.earlier = rows;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    const vitest = this.vitest;
    if (!vitest || this.isShard(vitest)) return Promise.resolve();
    const planned = new Map<string, Promise<PlannedSuite>>();
    const selectsCase = caseMatcher(this.options.cases);
    for (const spec of specifications) {
      if (!this.isSuiteFile(spec.moduleId) || planned.has(spec.moduleId)) continue;
      const { testNamePattern, testLines, testIds } = spec;
      const selection = {
        testNamePattern: testNamePattern ?? vitest.config.testNamePattern,
        testLines,
        testIds,
        tagsFilter: vitest.config.tagsFilter,
      };
      planned.set(spec.moduleId, planSuite(spec.moduleId, spec.project.config.root, selection, selectsCase));
    }
    for (const file of this.options.suiteFiles ?? []) {
      if (!planned.has(file)) planned.set(file, planSuite(file, vitest.config.root, {}, selectsCase));
    }
    this.planning = Promise.all(planned.values()).then((suites) => {
      for (const { file, suite } of suites) if (suite) this.suiteNames.set(file, suite.name);
      return new Map(suites.map((suite) => [suite.moduleId, suite]));
    });
    return this.planning.then(() => {});
  }

  onTestCaseResult(testCase: TestCase): void {
    const results = testCase.meta().gzBenchTrials;
    const suite = testCase.meta().gzBenchSuite;
    if (!results || suite === undefined || !this.vitest) return;
    const file = testCase.module.relativeModuleId;
    this.suiteNames.set(file, suite);
    // Vitest's live display shows running tests on a terminal; in CI logs, where it prints whole files
    // only, a line per finished trial shows progress through long agent runs.
    if (!(this.options.progress ?? this.options.table) || process.stdout.isTTY) return;
    for (const result of results) {
      this.vitest.logger.log(renderProgressLine({ ...result, suite, file }, { file: this.nameCollides(file, suite) }));
    }
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
    reason: TestRunEndReason = 'passed',
  ): Promise<void> {
    const vitest = this.vitest;
    // A shard's results are partial: the merge run reports them whole.
    if (!vitest || this.isShard(vitest)) return;
    const end: RunEnd = { unhandledErrors, reason };
    const planned = await this.planning;
    const collected = new Set<string>();
    for (const module of testModules) {
      const plan = planned.get(module.moduleId);
      const results = collectModuleResults(module, {
        isSuiteFile: (file) => this.isSuiteFile(file),
        notRunReason: notRunReason(
          end,
          module.errors().map((error) => error.message),
        ),
        suite: plan?.suite,
        trials: this.cells.trials,
        columns: {
          agents: this.cells.agents.length > 0,
          arms: suiteColumns(plan?.suite, [], this.cells.arms).some((column) => column.arm !== undefined),
        },
      });
      if (!results) continue;
      // A module with no tests whose suite is valid was never collected: its worker died first.
      if (results.cellKeys.length > 0 || plan?.suite === undefined) {
        collected.add(module.moduleId);
        this.remember(results);
      }
    }
    for (const plan of planned.values()) {
      if (collected.has(plan.moduleId) || plan.suite === undefined) continue;
      const module = testModules.find((candidate) => candidate.moduleId === plan.moduleId);
      this.remember(notCollected(plan, end, module, vitest.version, this.cells));
    }
    this.planning = Promise.resolve(new Map());

    const errors = [...this.modules.values()].flatMap((m) => m.errors.map((message) => ({ file: m.file, message })));
    const rows = withEarlierPasses(this.rows(), this.earlier);
    const report = buildReport(rows, { gzBenchVersion: packageVersion(), vitestVersion: vitest.version }, errors);
    // Several agents or trials make a benchmark: the report then says who did best, and how sure that is.
    if (rows.some((row) => row.agentName !== undefined || row.arm !== undefined || row.trial !== undefined)) {
      const baselineArm =
        this.options.baselineArm ?? [...planned.values()].find((plan) => plan.suite?.baselineArm)?.suite?.baselineArm;
      report.scoreboard = buildScoreboard(report.results, {
        rule: this.options.passRule ?? 'majority',
        ...(baselineArm !== undefined && { baselineArm }),
      });
    }
    // An interrupted run's cells ended early: an update keeps their baselines as they were.
    const update = isBaselineUpdate(vitest) && reason !== 'interrupted';
    const baselines = await settleBaselines(this.suiteCells(), {
      root: vitest.config.root,
      update,
      passRule: this.options.passRule ?? 'majority',
    });
    const baseline = summarizeBaseline(report.results, baselines.obsolete, baselines.written);
    if (baseline !== undefined) report.baseline = baseline;
    const sweep = buildSweep(report.results);
    if (sweep.length > 0) report.sweep = sweep;
    if (this.options.report !== false) {
      const path = resolve(vitest.config.root, this.options.report);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, renderJson(report));
    }
    if (this.options.html)
      await writeHtmlReport(report, resolve(vitest.config.root, this.options.html), vitest.config.root);
    this.options.onReport?.(report);
    if (this.options.table && (report.results.length > 0 || errors.length > 0)) {
      vitest.logger.log(`\n${renderTable(report, { color: useColor() })}`);
    }
    if (report.scoreboard !== undefined || report.sweep !== undefined) await this.showScoreboard(vitest, report);
  }

  /** The scoreboard and the family sweep after the table, and as Markdown for a pull request. */
  private async showScoreboard(vitest: Vitest, report: Report): Promise<void> {
    const { scoreboard, sweep } = report;
    if (this.options.table && scoreboard !== undefined) {
      vitest.logger.log(`\n${renderScoreboard(scoreboard, { color: useColor() })}`);
    }
    if (this.options.table && sweep !== undefined) vitest.logger.log(`\n${renderSweep(sweep)}`);
    const markdown = [
      ...(scoreboard === undefined ? [] : [renderScoreboardMarkdown(scoreboard)]),
      ...(sweep === undefined ? [] : [renderSweepMarkdown(sweep)]),
    ].join('\n');
    if (this.options.markdown) {
      const path = resolve(vitest.config.root, this.options.markdown);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, markdown);
    }
    await appendStepSummary(markdown, 'the scoreboard', (message) => vitest.logger.warn(message));
  }

  private get cells(): RunCells {
    return this.options.cells ?? { agents: [], trials: 1 };
  }

  private isShard(vitest: Vitest): boolean {
    return Boolean(vitest.config.shard && !vitest.config.mergeReports);
  }

  private isSuiteFile(file: string): boolean {
    return this.matchers.some((matches) => matches(file));
  }

  /** Whether another suite file has a suite of the same name, so that only the file tells their cases apart. */
  private nameCollides(file: string, suite: string): boolean {
    for (const [other, name] of this.suiteNames) if (name === suite && other !== file) return true;
    return false;
  }

  private remember(latest: ModuleResults): void {
    const previous = this.modules.get(latest.file);
    // In watch mode a re-run may skip cases (`-t`): they keep their last result, unless the suite no longer has them.
    const results = new Map<string, ReportResult[]>();
    for (const key of latest.cellKeys) {
      const rows = latest.results.get(key) ?? previous?.results.get(key);
      if (rows) results.set(key, rows);
    }
    this.modules.set(latest.file, { ...latest, results });
  }

  /** Every suite file's cells and their latest rows, for its baseline. */
  private suiteCells(): SuiteCells[] {
    return [...this.modules.values()].map((m) => {
      const cells = m.cellKeys.map((key) => JSON.parse(key) as [string | null, string]);
      return {
        file: m.file,
        cells: cells.map(([agent, caseId]) => [agent ?? undefined, caseId] as const),
        rows: m.cellKeys.map((key) => m.results.get(key)),
      };
    });
  }

  private rows(): ReportResult[] {
    return [...this.modules.values()].flatMap((m) => m.cellKeys.flatMap((key) => m.results.get(key) ?? []));
  }
}

/** The results of a planned suite file that Vitest never collected: its selected cases did not run. */
function notCollected(
  plan: PlannedSuite,
  end: RunEnd,
  module: TestModule | undefined,
  vitestVersion: string,
  cells: RunCells,
): ModuleResults {
  const suite = plan.suite;
  const moduleErrors = module?.errors().map((error) => error.message) ?? [];
  const reason = notRunReason(end, moduleErrors);
  const results = new Map<string, ReportResult[]>();
  const trials = Array.from({ length: cells.trials }, (_, offset) => offset + 1);
  for (const { column, planned } of selectedCases(plan, vitestVersion, cells.agents, cells.arms) ?? []) {
    const rows = trials.map((trial) => ({
      ...notRunResult(planned, reason),
      ...(column.agentName !== undefined && { agentName: column.agentName }),
      ...(column.arm !== undefined && { arm: column.arm }),
      ...(cells.trials > 1 && { trial }),
      ...caseLabels(suite, planned.id),
    }));
    results.set(cellKey(columnName(column), planned.id), rows);
  }
  const columns = suiteColumns(suite, cells.agents, cells.arms);
  const cellKeys = columns.flatMap((column) => suite?.cases.map((c) => cellKey(columnName(column), c.id)) ?? []);
  return { file: plan.file, cellKeys, results, errors: moduleErrors };
}

function useColor(): boolean {
  return process.stdout.isTTY === true && !('NO_COLOR' in process.env);
}
