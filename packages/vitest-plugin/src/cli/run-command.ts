import { isAbsolute, relative, resolve, sep } from 'node:path';
import {
  assertUsableTempDir,
  assertValidTemplate,
  createRunCacheDir,
  inlinePromptProblem,
  markStage,
  type Report,
  resolveSandbox,
  type Suite,
  suiteColumns,
  suiteTagNames,
  TemplateError,
} from '@gz-bench/core';
import { escapePath } from 'tinyglobby';
import { createVitest } from 'vitest/node';
import { writeHtmlReport } from '../node/html-report.js';
import { OptionsError } from '../node/options-error.js';
import { createGzBenchPlugin } from '../node/plugin.js';
import { GzBenchReporter } from '../node/reporter.js';
import { assertSafeAgents } from '../node/resolve-agents.js';
import { cancelRunSlots } from '../node/run-slots.js';
import { releasePrefork } from '../prefork/prefork.js';
import { preforkPool } from '../prefork/prefork-pool.js';
import type { ResolvedGzBenchOptions } from '../shared/options.js';
import { armFlags, assertArmsLoad } from './arm-flags.js';
import { selectCases } from './case-flags.js';
import { cellFlags, namePattern, resolveCliAgents } from './cell-flags.js';
import { EXIT } from './exit-codes.js';
import { sizeOwnHeap } from './own-heap.js';
import { parseStrict } from './parse-args.js';
import { onlyFailedFlag, retryErrorsFlag, withRetryErrorsValue } from './rerun-flags.js';
import { type LoadedSuites, notRunReport, printReport } from './run-report.js';
import { loadNamedSuites, runSettings } from './run-settings.js';
import { writeOut } from './stdout.js';
import { tagsFilterProblem } from './tags-filter.js';
import { UsageError } from './usage-error.js';
import { vitestTempDirIn } from './vitest-temp-dir.js';

interface RunFlags {
  cmd?: string;
  timeout?: string;
  json?: boolean;
  keep?: boolean;
  'allow-env'?: string[];
  'base-image'?: string[];
  engine?: string;
  case?: string[];
  'allow-secrets'?: boolean;
  sandbox?: string;
  logs?: string;
  concurrency?: string;
  agent?: string[];
  arm?: string[];
  'baseline-arm'?: string;
  'skill-scope'?: string;
  trials?: string;
  'pass-rule'?: string;
  unsafe?: boolean;
  'max-cost-usd'?: string;
  'max-tokens'?: string;
  'max-turns'?: string;
  markdown?: string;
  html?: string;
  'test-name-pattern'?: string;
  'tags-filter'?: string[];
  'only-failed'?: string;
  'retry-errors'?: string;
  update?: boolean;
}

/** `gz-bench run <suite.json>... --cmd "<template>"`: runs the suites through Vitest with the gz-bench plugin. */
export async function runCommand(args: string[]): Promise<number> {
  markStage('gz-bench run is loaded');
  const { values, positionals } = parseStrict<RunFlags>(withRetryErrorsValue(args), {
    cmd: { type: 'string' },
    timeout: { type: 'string' },
    json: { type: 'boolean' },
    keep: { type: 'boolean' },
    'allow-env': { type: 'string', multiple: true },
    'base-image': { type: 'string', multiple: true },
    engine: { type: 'string' },
    case: { type: 'string', multiple: true },
    'allow-secrets': { type: 'boolean' },
    sandbox: { type: 'string' },
    logs: { type: 'string' },
    concurrency: { type: 'string' },
    agent: { type: 'string', multiple: true },
    arm: { type: 'string', multiple: true },
    'baseline-arm': { type: 'string' },
    'skill-scope': { type: 'string' },
    trials: { type: 'string' },
    'pass-rule': { type: 'string' },
    unsafe: { type: 'boolean' },
    'max-cost-usd': { type: 'string' },
    'max-tokens': { type: 'string' },
    'max-turns': { type: 'string' },
    markdown: { type: 'string' },
    html: { type: 'string' },
    'test-name-pattern': { type: 'string', short: 't' },
    'tags-filter': { type: 'string', multiple: true },
    'only-failed': { type: 'string' },
    'retry-errors': { type: 'string' },
    update: { type: 'boolean', short: 'u' },
  });
  if (positionals.length === 0) throw new UsageError('run needs at least one suite file');
  const agentFlags = values.agent ?? [];
  if (values.cmd === undefined && agentFlags.length === 0) throw new UsageError('--cmd or --agent is required');
  if (values.cmd !== undefined && agentFlags.length > 0) {
    throw new UsageError('--cmd and --agent do not go together: name the command as an agent, --agent NAME=TEMPLATE');
  }
  if (values.cmd !== undefined) assertValidTemplate(values.cmd);
  const agents = resolveCliAgents(agentFlags);
  const cells = cellFlags(values);
  try {
    assertSafeAgents(agents, values.cmd, cells.unsafe);
  } catch (error) {
    if (error instanceof OptionsError) throw new UsageError(error.message.replace(/^gz-bench: /, ''));
    throw error;
  }
  const arms = armFlags(values);
  const testNamePattern = namePattern(values['test-name-pattern']);
  const tagsFilter = values['tags-filter'];
  const { timeout, allowEnv, sandbox, concurrency, baseImages, engine } = runSettings(values);
  const { named, files, suites: all } = await loadNamedSuites(positionals);
  markStage(`${files.length === 1 ? 'the suite file is' : `${files.length} suite files are`} loaded`);
  const suites = selectCases(all, values.case);
  await assertArmsLoad(
    arms,
    suites.map(({ suite }, index) => ({ file: files[index] as string, suite })),
  );
  const runArms = arms.arms === undefined ? undefined : Object.keys(arms.arms);
  const templates = values.cmd !== undefined ? [values.cmd] : agents.map((agent) => agent.cmd);
  for (const [index, given] of [...named.values()].entries()) {
    const loaded = suites[index];
    for (const cmd of templates) if (loaded) assertPromptsFit(cmd, loaded.suite, given);
  }
  if (tagsFilter !== undefined) {
    const known = [...new Set(suites.flatMap(({ suite }) => suiteTagNames(suite)))];
    for (const expr of tagsFilter) {
      const problem = tagsFilterProblem(expr, known);
      if (problem !== undefined) throw new UsageError(problem);
    }
  }
  if (sandbox === 'none') {
    for (const [index, given] of [...named.values()].entries()) {
      const loaded = suites[index]?.suite;
      const placed = loaded?.cases.find((testCase) => (testCase.workdir ?? loaded.workdir) !== undefined);
      if (loaded && placed) {
        const workdir = placed.workdir ?? loaded.workdir;
        throw new UsageError(
          `${given}: case "${placed.id}": workdir "${workdir}" needs the bwrap sandbox; run with --sandbox bwrap (or auto)`,
        );
      }
    }
  }
  const runnable = files.filter((_, index) => (suites[index]?.suite.cases.length ?? 0) > 0);
  // A temp dir that cannot hold case areas stops the run here, in one line, before Vitest writes there.
  if (runnable.length > 0) await assertUsableTempDir();
  // So does a bwrap that cannot work here: thrown inside Vitest's start, it would end in a stack trace.
  if (runnable.length > 0 && sandbox === 'bwrap') await resolveSandbox(sandbox);

  const root = commonRoot(files);
  const include = runnable.map((file) => escapePath(relative(root, file).split(sep).join('/')));
  const retryErrors = retryErrorsFlag(values['retry-errors']);
  const onlyFailed = await onlyFailedFlag(values['only-failed'], {
    root,
    include,
    exclude: [],
    agents: agents.map((agent) => agent.name),
    arms: runArms,
    trials: cells.trials,
  });
  const json = values.json === true;
  let report: Report | undefined;
  // The CLI prints the table itself, once the report holds every case it was given.
  const reporter = new GzBenchReporter({
    report: false,
    table: false,
    progress: !json,
    onReport: (latest) => (report = latest),
    suiteFiles: runnable,
    cells: { agents: agents.map((agent) => agent.name), ...(runArms && { arms: runArms }), trials: cells.trials },
    passRule: cells.passRule,
    baselineArm: arms.baselineArm,
    markdown: values.markdown === undefined ? false : resolve(values.markdown),
    cases: values.case,
  });
  const options: ResolvedGzBenchOptions = {
    cmd: values.cmd,
    agents,
    cases: values.case,
    ...cells,
    markdown: values.markdown === undefined ? false : resolve(values.markdown),
    include,
    timeout,
    keep: values.keep === true,
    report: false,
    html: false,
    // Off unless asked for: like the report, the CLI writes nothing into the directory it runs in by
    // default. Named from the current directory, as the suite paths are.
    logs: values.logs === undefined ? false : resolve(values.logs),
    concurrency,
    table: !json,
    allowEnv,
    allowSecrets: values['allow-secrets'] === true,
    sandbox,
    baseImages,
    engine,
    ...arms,
    solutionAgent: undefined,
    onlyFailed,
    retryErrors,
  };

  const outcome: VitestOutcome =
    runnable.length > 0
      ? await runVitest(root, options, reporter, json, { testNamePattern, tagsFilter, update: values.update === true })
      : { failed: false };
  const loaded: LoadedSuites = { root, suites };
  // Vitest ended without a report (it never started the run): every case is one that did not run.
  const final: Report =
    report ?? notRunReport(loaded, outcome.interrupted ? 'the run was interrupted first' : undefined);
  await printReport(final, { json, write: writeOut });
  markStage('the report is printed');
  if (values.html !== undefined && !(await writeHtmlFlag(final, values.html, root))) return EXIT.usage;
  if (outcome.interrupted) return 128 + (outcome.interrupted === 'SIGINT' ? 2 : 15);
  // Every validated case must have a result, per agent and trial: anything less is a harness fault,
  // never a pass. With -t, only the cases it picks run, and it must pick one.
  const cases = suites.reduce((sum, { suite }) => sum + suite.cases.length, 0);
  const names = agents.map((agent) => agent.name);
  const expected =
    suites.reduce((sum, { suite }) => sum + suite.cases.length * suiteColumns(suite, names, runArms).length, 0) *
    cells.trials;
  if (testNamePattern !== undefined && final.summary.total === 0 && cases > 0) {
    process.stderr.write(`gz-bench: no case matches -t ${values['test-name-pattern']}\n`);
    return EXIT.failed;
  }
  if (tagsFilter !== undefined && final.summary.total === 0 && cases > 0) {
    process.stderr.write(`gz-bench: no case matches --tags-filter ${tagsFilter.join(' --tags-filter ')}\n`);
    return EXIT.failed;
  }
  if (testNamePattern === undefined && tagsFilter === undefined && final.summary.total !== expected) {
    const what = expected === cases ? `${expected} cases` : `${expected} trials`;
    process.stderr.write(`gz-bench: expected results for ${what}, got ${final.summary.total}\n`);
    return EXIT.failed;
  }
  const failed = outcome.failed || failedUnexcused(final) || (final.errors?.length ?? 0) > 0;
  return failed ? EXIT.failed : EXIT.passed;
}

/** Writes `--html FILE` (named from the current directory; the rows name paths from `root`); false when it cannot. */
async function writeHtmlFlag(report: Report, file: string, root: string): Promise<boolean> {
  try {
    await writeHtmlReport(report, resolve(file), root);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    process.stderr.write(`gz-bench: --html ${file}: cannot write the page there (${code})\n`);
    return false;
  }
}

/**
 * Whether some row fails that no baseline excuses. A row judged against its suite's baseline failed
 * the run through its Vitest test (a regression) or not at all (a known failure, a result within
 * noise); a row without a judgement fails the run when it failed, a row that did not run always.
 */
function failedUnexcused(report: Report): boolean {
  return report.results.some((row) => !row.passed && (row.baseline === undefined || row.notRun === true));
}

/** Refuses, before anything runs, a `{{prompt}}` template with a prompt too long to pass inline. */
function assertPromptsFit(cmd: string, suite: Suite, file: string): void {
  for (const testCase of suite.cases) {
    const problem = inlinePromptProblem(cmd, testCase.prompt);
    if (problem !== undefined) throw new TemplateError(`${file}: case "${testCase.id}": ${problem}`);
  }
}

/** How a Vitest run ended, as the exit code needs it. */
export interface VitestOutcome {
  /** Vitest itself reported failures (failed tests or errors outside them). */
  failed: boolean;
  /** The signal that interrupted the run, if one did. */
  interrupted?: NodeJS.Signals;
}

/** Runs Vitest once over the suites. */
export async function runVitest(
  root: string,
  options: ResolvedGzBenchOptions,
  reporter: GzBenchReporter,
  json: boolean,
  selection: { testNamePattern: string | undefined; tagsFilter: string[] | undefined; update?: boolean },
): Promise<VitestOutcome> {
  const { testNamePattern, tagsFilter, update } = selection;
  // Vite and Vitest keep caches under the root's node_modules; the CLI leaves the user's directory as it found it.
  const cache = await createRunCacheDir();
  const cacheDir = cache.path;
  vitestTempDirIn(cacheDir);
  const vitestSignalHandlers = new SignalHandlerWatch();
  try {
    const vitest = await createVitest(
      'test',
      {
        config: false,
        root,
        include: options.include,
        exclude: [],
        watch: false,
        passWithNoTests: true,
        // A worker runs one suite file after another in one process, instead of a new process per
        // file: each costs a Node start-up and gz-bench's import (CPU that the next file's cases wait
        // for on a busy machine) and its memory. Suite modules are data; the runtime's state is per
        // worker by design (its guardian, sandbox probe and slot client).
        isolate: false,
        // Vitest's forks, the first of them started by the bin while the CLI loaded (prefork.ts).
        pool: preforkPool(),
        reporters: ['default'],
        ...(testNamePattern !== undefined && { testNamePattern }),
        ...(tagsFilter !== undefined && { tagsFilter }),
        // As Vitest's -u: the baselines beside the suites take this run's results.
        ...(update === true && { update: true }),
      },
      { plugins: [createGzBenchPlugin(options, { reporter, allowEnvOrigin: '--allow-env' })], cacheDir },
      // With --json, stdout carries the report alone: Vitest's progress goes to stderr.
      json ? { stdout: process.stderr, stderr: process.stderr } : {},
    );
    markStage('Vitest is created');
    // Vitest exits the process 1 ms after SIGINT or SIGTERM. The CLI cancels the run instead, so that
    // every case ends its processes and removes its workspace, and the report still comes out; a second
    // signal hands over to Vitest's own handlers.
    const exitAtOnce = vitestSignalHandlers.takeAdded();
    let interrupted: NodeJS.Signals | undefined;
    const stop = onInterrupt((signal) => {
      if (interrupted) return exitAtOnce(signal);
      interrupted = signal;
      process.stderr.write(`\ngz-bench: ${signal} received, stopping the running cases (again to quit at once)…\n`);
      void cancelRunSlots(vitest);
      void vitest.cancelCurrentRun('keyboard-input');
    });
    try {
      sizeOwnHeap();
      await vitest.start();
      markStage('Vitest has run every case');
      const failed = vitest.state.getCountOfFailedTests() > 0 || vitest.state.getUnhandledErrors().length > 0;
      return { failed, ...(interrupted && { interrupted }) };
    } finally {
      stop();
      await vitest.close();
    }
  } finally {
    // A run that started no worker (no cases, a failed start) leaves none waiting.
    releasePrefork();
    await cache.remove();
  }
}

/** Notes the SIGINT and SIGTERM listeners present now, to take over those added later. */
class SignalHandlerWatch {
  private readonly before = new Map(INTERRUPTS.map((signal) => [signal, new Set(process.listeners(signal))]));

  /** Removes the listeners added since construction and returns a function that runs them for a signal. */
  takeAdded(): (signal: NodeJS.Signals) => void {
    const added = new Map(
      INTERRUPTS.map((signal) => [
        signal,
        process.listeners(signal).filter((listener) => !this.before.get(signal)?.has(listener)),
      ]),
    );
    for (const [signal, listeners] of added) for (const listener of listeners) process.off(signal, listener);
    return (signal) => {
      const listeners = added.get(signal) ?? [];
      if (listeners.length === 0) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
      for (const listener of listeners) (listener as (signal: NodeJS.Signals) => void)(signal);
    };
  }
}

const INTERRUPTS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Calls `handle` for each SIGINT or SIGTERM until the returned function is called. */
function onInterrupt(handle: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of INTERRUPTS) process.on(signal, handle);
  return () => {
    for (const signal of INTERRUPTS) process.off(signal, handle);
  };
}

/** The current directory when every file is inside it, else the deepest directory that holds them all. */
export function commonRoot(files: string[]): string {
  const cwd = process.cwd();
  if (files.every((file) => !relative(cwd, file).startsWith('..') && !isAbsolute(relative(cwd, file)))) return cwd;
  let root = files[0]?.split(sep).slice(0, -1) ?? [];
  for (const file of files) {
    const parts = file.split(sep);
    let shared = 0;
    while (shared < root.length && root[shared] === parts[shared]) shared++;
    root = root.slice(0, shared);
  }
  return root.join(sep) || sep;
}
