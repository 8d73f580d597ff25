/// <reference types="vitest/config" />
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ArmSet,
  assertUsableTempDir,
  BaselineError,
  baselinePathFor,
  isBaselinePath,
  loadArms,
  loadSuite,
  locateCases,
  markStage,
  resolveSandbox,
  SkillError,
  type Suite,
  SuiteError,
  TempDirError,
  unknownSkillProblem,
} from '@gz-bench/core';
import picomatch from 'picomatch';
import { escapePath } from 'tinyglobby';
import type { Plugin } from 'vitest/config';
import type { Vitest } from 'vitest/node';
import { preloadHarness } from '../prefork/preload-flag.js';
import { type GzBenchOptions, PROVIDE_KEY, type ResolvedGzBenchOptions } from '../shared/options.js';
import { agentPoolKey } from '../shared/slot-protocol.js';
import { addAllowEnvWarnerOnce } from './allow-env-warnings.js';
import { readSuiteBaseline } from './baseline-source.js';
import { isBaselineUpdate } from './baseline-update.js';
import { caseMatcher, narrowCases } from './case-filter.js';
import { EnvironmentError } from './environment-error.js';
import { generateInvalidSuiteModule, generateSuiteModule, moduleBaseline } from './generate-module.js';
import { ownPackageFiles } from './own-packages.js';
import { GZ_BENCH_REPORTER, GzBenchReporter, type GzBenchReporterOptions } from './reporter.js';
import { type EarlierRun, loadEarlierRun } from './rerun-load.js';
import { OptionsError, resolveOptions } from './resolve-options.js';
import { runSlots } from './run-slots.js';
import type { SlotLimits } from './slot-queue.js';
import { addSweeperOnce, sweepStaleAreas } from './stale-sweeper.js';
import {
  dataVersionOf,
  generateSuiteDataModule,
  SuiteDataModules,
  suiteDataId,
  suiteVersion,
} from './suite-data-module.js';
import { missingTags, type SuiteScan, scanSuites } from './suite-tags.js';
import { userEnvOverrides } from './user-env.js';
import { skipViteJsonFor } from './vite-json-compat.js';
import { sizeWorkerHeap } from './worker-heap.js';
import { sizeWorkersFor, trialsPerFile } from './worker-sizing.js';

/** Where suites are not looked for when the config names no `exclude` (as Vitest's own default). */
const DEFAULT_EXCLUDE = ['**/node_modules/**', '**/.git/**'];

/** Baseline files, beside their suites (see core's baseline/baseline-file.ts). */
const BASELINE_GLOB = '**/*.baseline.json';

const RUNTIME_ID = fileURLToPath(new URL('../runtime/index.js', import.meta.url));

/**
 * The gz-bench Vitest plugin: every suite file matched by `include` becomes a test module with one
 * test per case, and a reporter writes the gz-bench report.
 *
 * @example
 * plugins: [gzBench({ cmd: 'my-agent --workdir {{dir}} "{{prompt}}"' })]
 */
export function gzBench(options: GzBenchOptions = {}): Plugin {
  // Where the run's allowEnv came from, for the warning about names that are not set.
  const allowEnvOrigin = process.env.GZ_BENCH_ALLOW_ENV ? 'GZ_BENCH_ALLOW_ENV' : "the plugin's allowEnv";
  return createGzBenchPlugin(resolveOptions(options), { allowEnvOrigin });
}

/** Extra wiring for callers that drive Vitest themselves (the CLI). */
export interface PluginHooks {
  /** Use this reporter instead of adding one. */
  reporter?: GzBenchReporter;
  /** How warnings name where the options' `allowEnv` was given (`--allow-env`). @default "allowEnv" */
  allowEnvOrigin?: string;
}

/** Builds the plugin from options already resolved. */
export function createGzBenchPlugin(options: ResolvedGzBenchOptions, hooks: PluginHooks = {}): Plugin {
  let root = process.cwd();
  const matches = picomatch(options.include, { dot: true });
  const isSuite = (id: string) => {
    const file = cleanId(id);
    if (!isAbsolute(file)) return false;
    const path = relative(root, file);
    // A baseline file beside its suite is never one, however wide the include.
    return path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path) && matches(path) && !isBaselinePath(file);
  };

  const selectsCase = caseMatcher(options.cases);
  const dataModules = new SuiteDataModules();
  // A suite's test module, and the data module it imports (suite-data-module.ts), of its text now.
  const generateModules = async (file: string) => {
    const displayPath = relative(root, file);
    const loaded = await loadSuite(file, { displayPath });
    const { source } = loaded;
    // Only the cases the run selects become tests: Vitest never lists the others.
    const { suite, locations } = narrowCases(loaded.suite, locateCases(source), selectsCase);
    // Read in the main process, where it lives beside the suite; each cell's test is judged by it.
    const baseline = await readSuiteBaseline(file, displayPath);
    // The baseline is part of the version, so that a data module is never reused across an edit of it.
    const version = suiteVersion(baseline === undefined ? source : `${source}\0${JSON.stringify(baseline)}`);
    const armSet = await suiteArms(suite, file, options, root);
    const problem = options.solutionAgent === undefined ? unknownSkillProblem(suite, armSet) : undefined;
    if (problem !== undefined) throw new SkillError(`${displayPath}: ${problem}`);
    const test = generateSuiteModule({
      suite,
      file,
      source,
      locations,
      runtimeId: RUNTIME_ID,
      agents: options.agents.map((agent) => agent.name),
      arms: armSet?.arms.map((arm) => arm.name) ?? [],
      dataId: suiteDataId(file, version),
    });
    const data = generateSuiteDataModule({
      suite,
      file,
      locations,
      ...(baseline !== undefined && { baseline: moduleBaseline(baseline) }),
      ...(armSet !== undefined && { arms: armSet }),
    });
    return { version, test, data };
  };

  return {
    name: 'gz-bench',
    enforce: 'pre',
    async config(userConfig) {
      // The suites' tags, defined here so that --list-tags, static parsing and the IDE see them too.
      const scan = await scanSuites(
        userConfig.root ?? process.cwd(),
        options.include,
        userConfig.test?.exclude ?? DEFAULT_EXCLUDE,
      );
      const tags = missingTags(scan.tags, userConfig.test?.tags);
      return { test: { server: { deps: { external: ownPackageFiles() } }, ...(tags.length > 0 && { tags }) } };
    },
    configResolved(config) {
      root = config.root;
      skipViteJsonFor(config, isSuite);
    },
    async load(id) {
      if (!isSuite(id)) return null;
      const file = cleanId(id);
      this.addWatchFile(file);
      // Watched, so that watch mode never judges by a baseline that an update or an edit has replaced.
      this.addWatchFile(baselinePathFor(file));
      const dataVersion = dataVersionOf(id);
      const held = dataVersion === undefined ? undefined : dataModules.take(file, dataVersion);
      if (held !== undefined) return { ...held, moduleType: 'js' };
      try {
        const { version, test, data } = await generateModules(file);
        if (dataVersion === undefined) {
          dataModules.remember(file, version, data);
          return { ...test, moduleType: 'js' };
        }
        if (dataVersion === version) return { ...data, moduleType: 'js' };
        // Its test module was made from other cases: running them by this data would mix them up.
        const changed = `${relative(root, file)} changed while its cases were being loaded: run again`;
        return { code: generateInvalidSuiteModule(changed), moduleType: 'js' };
      } catch (error) {
        if (!(error instanceof SuiteError) && !(error instanceof BaselineError) && !(error instanceof SkillError)) {
          throw error;
        }
        return { code: generateInvalidSuiteModule(error.message), moduleType: 'js' };
      }
    },
    async configureVitest({ project, vitest }) {
      await prepareRun(vitest, options);
      for (const glob of options.include) {
        if (!project.config.include.includes(glob)) project.config.include.push(glob);
      }
      // A wide include (`bench/**/*.json`) matches the baseline files beside the suites: they are no test files.
      if (!project.config.exclude.includes(BASELINE_GLOB)) project.config.exclude.push(BASELINE_GLOB);
      // For suites the config hook did not see (a project of its own root, a config built without it).
      const scan = await scanSuites(project.config.root, options.include, project.config.exclude);
      project.config.tags.push(...missingTags(scan.tags, project.config.tags));
      // A suite none of whose cases the run selects is no test file of it: Vitest would fail it for
      // having no test.
      if (selectsCase !== undefined) {
        for (const { file } of scan.suites.filter(({ ids }) => !ids.some(selectsCase))) {
          project.config.exclude.push(escapePath(relative(project.config.root, file).split(sep).join('/')));
        }
        warnUnmatchedCases(options.cases ?? [], scan.suites);
      }
      // A merge run only reports: it runs no case, and needs no slots.
      const slots = vitest.config.mergeReports ? undefined : await runSlots(vitest, slotLimits(options));
      const earlier: EarlierRun | undefined = vitest.config.mergeReports
        ? undefined
        : await loadEarlierRun(vitest, project.config, options);
      sizeWorkersFor(
        vitest,
        project,
        options.concurrency,
        trialsPerFile(scan.casesPerFile, options, vitest.config, earlier !== undefined),
      );
      sizeWorkerHeap(project);
      preloadHarness(project);
      project.provide(PROVIDE_KEY, {
        cmd: options.cmd,
        agents: options.agents,
        trials: options.trials,
        passRule: options.passRule,
        maxCostUsd: options.maxCostUsd,
        maxTokens: options.maxTokens,
        maxTurns: options.maxTurns,
        timeout: options.timeout,
        keep: options.keep,
        concurrency: options.concurrency,
        slots,
        allowEnv: options.allowEnv,
        allowSecrets: options.allowSecrets,
        sandbox: options.sandbox,
        engine: options.engine,
        baseImages: Object.fromEntries(
          Object.entries(options.baseImages).map(([name, path]) => [name, resolve(vitest.config.root, path)]),
        ),
        solutionAgent: options.solutionAgent,
        retryErrors: options.retryErrors,
        ...(scan.secretPaths.length > 0 && { secretPaths: scan.secretPaths }),
        ...(earlier && { resume: earlier.resume }),
        baselineUpdate: isBaselineUpdate(vitest),
        ...(options.concurrency === 1 && (vitest.config.bail ?? 0) > 0 && { oneTestAtATime: true }),
        userEnv: userEnvOverrides(Object.keys(project.config.env ?? {})),
        // Beside the report, against the same root; absolute, so every worker writes to the same place.
        logs:
          options.logs === false ? false : { dir: resolve(vitest.config.root, options.logs), root: vitest.config.root },
      });
      const reporter = addReporterOnce(vitest, hooks.reporter ?? new GzBenchReporter(reporterOptions(options)));
      reporter.addSuiteMatcher(isSuite);
      if (earlier) reporter.keepEarlierPasses(earlier.rows);
      addAllowEnvWarnerOnce(vitest).addProject(isSuite, [
        { entries: options.allowEnv, origin: hooks.allowEnvOrigin ?? 'allowEnv' },
        // A preset's allowEnv lists what its CLI may use, alternatives among them (one API key or
        // another): `gz-bench doctor` tells which are set. A user's own agent names what it needs.
        ...options.agents.flatMap((agent) =>
          agent.preset === undefined && agent.allowEnv?.length
            ? [{ entries: agent.allowEnv, origin: `allowEnv of agent "${agent.name}"` }]
            : [],
        ),
      ]);
      addSweeperOnce(vitest);
    },
  };
}

const warnedCases = new Set<string>();

/** One line on stderr for each selected case id (or glob) that no suite has, once per run. */
function warnUnmatchedCases(patterns: readonly string[], suites: SuiteScan['suites']): void {
  const ids = suites.flatMap((suite) => suite.ids);
  for (const pattern of patterns) {
    const matches = caseMatcher([pattern]);
    if (warnedCases.has(pattern) || matches === undefined || ids.some(matches)) continue;
    warnedCases.add(pattern);
    process.stderr.write(
      `gz-bench: warning: no case of the suites has the id ${JSON.stringify(pattern)} (GZ_BENCH_CASES, cases)\n`,
    );
  }
}

let prepared: Promise<void> | undefined;

/**
 * Once per run, before any case: stops the run with one line when the temp dir cannot hold case areas
 * (before Vitest writes its own files there), removes what harness processes that died outright left
 * behind (case areas, cache dirs, their agents' processes), and settles the sandbox so that a `bwrap`
 * that cannot work stops the run with its reason, and `auto` says plainly when it runs cases unconfined.
 */
function prepareRun(vitest: Vitest, options: ResolvedGzBenchOptions): Promise<void> {
  prepared ??= (async () => {
    try {
      await assertUsableTempDir();
    } catch (error) {
      if (error instanceof TempDirError) throw new EnvironmentError(`gz-bench: ${error.message}`);
      throw error;
    }
    markStage('the temp dir is usable');
    await sweepStaleAreas(vitest);
    markStage('stale case areas are swept');
    let sandbox: Awaited<ReturnType<typeof resolveSandbox>>;
    try {
      sandbox = await resolveSandbox(options.sandbox);
    } catch (error) {
      throw new OptionsError(`gz-bench option "sandbox" is bwrap, but ${(error as Error).message}`);
    }
    markStage(`the sandbox is resolved: ${sandbox.kind}`);
    if (sandbox.note !== undefined) vitest.logger.warn(`gz-bench: ${sandbox.note}`);
    // Chosen by default, the sandbox changes what an agent may do: say so once, with the way out.
    if (sandbox.kind === 'bwrap' && options.sandbox === 'auto') {
      vitest.logger.log(
        'gz-bench: cases run in the bwrap sandbox (host read-only, only each case area writable); sandbox: "none" or --sandbox none turns it off',
      );
    }
  })();
  return prepared;
}

/** The run's limit, and each agent's own where it sets one (providers rate-limit). */
function slotLimits(options: ResolvedGzBenchOptions): SlotLimits {
  const keys = Object.fromEntries(
    options.agents.flatMap((agent) =>
      agent.concurrency === undefined ? [] : [[agentPoolKey(agent.name), agent.concurrency] as const],
    ),
  );
  return { total: options.concurrency, keys };
}

/**
 * The arms of a suite's run, their skills read and checked: the run's own (relative to the Vitest
 * root), else the suite's (relative to its file); none to prove the checks, which needs no skill.
 */
async function suiteArms(
  suite: Suite,
  file: string,
  options: ResolvedGzBenchOptions,
  root: string,
): Promise<ArmSet | undefined> {
  if (options.solutionAgent !== undefined) return undefined;
  if (options.arms !== undefined) return loadArms(options.arms, root, options.baselineArm);
  if (suite.arms === undefined) return undefined;
  return loadArms(suite.arms, dirname(file), suite.baselineArm);
}

/** The names of the run's own arms, which replace every suite's; undefined where the suites name theirs. */
export function runArmNames(options: ResolvedGzBenchOptions): string[] | undefined {
  if (options.solutionAgent !== undefined) return [];
  return options.arms === undefined ? undefined : Object.keys(options.arms);
}

function reporterOptions(options: ResolvedGzBenchOptions): GzBenchReporterOptions {
  const arms = runArmNames(options);
  return {
    report: options.report,
    table: options.table,
    cells: { agents: options.agents.map((agent) => agent.name), ...(arms && { arms }), trials: options.trials },
    passRule: options.passRule,
    baselineArm: options.baselineArm,
    markdown: options.markdown,
    html: options.html,
    cases: options.cases,
  };
}

// configureVitest runs once per project; the run needs one reporter, which learns every project's suites.
function addReporterOnce(vitest: Vitest, reporter: GzBenchReporter): GzBenchReporter {
  const reporters = vitest.config.reporters as unknown[];
  const present = reporters.find(
    (entry): entry is GzBenchReporter => typeof entry === 'object' && entry !== null && GZ_BENCH_REPORTER in entry,
  );
  if (present) return present;
  reporters.push(reporter);
  return reporter;
}

function cleanId(id: string): string {
  const query = id.indexOf('?');
  return query === -1 ? id : id.slice(0, query);
}
