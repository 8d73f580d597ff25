import { relative, sep } from 'node:path';
import {
  assertUsableTempDir,
  NO_OP_COMMAND,
  ORACLE_AGENTS,
  type OracleCase,
  oracleProblems,
  type Report,
} from '@gz-bench/core';
import { escapePath } from 'tinyglobby';
import { GzBenchReporter } from '../node/reporter.js';
import type { ResolvedGzBenchOptions } from '../shared/options.js';
import { selectCases } from './case-flags.js';
import { EXIT } from './exit-codes.js';
import { notReproducedText } from './not-reproduced.js';
import { parseStrict } from './parse-args.js';
import { commonRoot, runVitest } from './run-command.js';
import { loadNamedSuites, runSettings } from './run-settings.js';
import { UsageError } from './usage-error.js';

interface CheckSuiteFlags {
  timeout?: string;
  'allow-env'?: string[];
  'base-image'?: string[];
  engine?: string;
  case?: string[];
  'allow-secrets'?: boolean;
  sandbox?: string;
  concurrency?: string;
}

/**
 * `gz-bench check-suite <suite.json>...`: runs every case twice through the same machinery as `run`,
 * with a no-op agent (its checks must fail) and with its own `solution` as the agent (they must pass),
 * and names each case that does not discriminate. Exit 1 when one does not, 0 when all do.
 */
export async function checkSuiteCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<CheckSuiteFlags>(args, {
    timeout: { type: 'string' },
    'allow-env': { type: 'string', multiple: true },
    'base-image': { type: 'string', multiple: true },
    engine: { type: 'string' },
    case: { type: 'string', multiple: true },
    'allow-secrets': { type: 'boolean' },
    sandbox: { type: 'string' },
    concurrency: { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('check-suite needs at least one suite file');
  const { timeout, allowEnv, sandbox, concurrency, baseImages, engine } = runSettings(values);
  const { files, suites: all } = await loadNamedSuites(positionals);
  const suites = selectCases(all, values.case);
  const root = commonRoot(files);
  const cases: OracleCase[] = suites.flatMap(({ suite, file }) =>
    suite.cases.map((testCase) => ({
      file: relative(root, file).split(sep).join('/'),
      id: testCase.id,
      hasSolution: testCase.solution !== undefined && testCase.solution.length > 0,
    })),
  );
  const runnable = files.filter((_, index) => (suites[index]?.suite.cases.length ?? 0) > 0);
  if (runnable.length > 0) await assertUsableTempDir();

  // Two agents: the no-op, and one whose command each case's solution replaces (see run-trial.ts).
  const agents = [
    { name: ORACLE_AGENTS.noOp, cmd: NO_OP_COMMAND },
    { name: ORACLE_AGENTS.solution, cmd: NO_OP_COMMAND },
  ];
  let report: Report | undefined;
  const reporter = new GzBenchReporter({
    report: false,
    table: false,
    progress: true,
    onReport: (latest) => (report = latest),
    suiteFiles: runnable,
    // The oracle proves the checks without any arm's skills.
    cells: { agents: agents.map((agent) => agent.name), arms: [], trials: 1 },
    passRule: 'majority',
    markdown: false,
    cases: values.case,
  });
  const options: ResolvedGzBenchOptions = {
    cmd: undefined,
    agents,
    cases: values.case,
    trials: 1,
    passRule: 'majority',
    unsafe: false,
    maxCostUsd: undefined,
    maxTokens: undefined,
    maxTurns: undefined,
    markdown: false,
    include: runnable.map((file) => escapePath(relative(root, file).split(sep).join('/'))),
    timeout,
    keep: false,
    report: false,
    html: false,
    logs: false,
    concurrency,
    table: false,
    allowEnv,
    allowSecrets: values['allow-secrets'] === true,
    sandbox,
    baseImages,
    engine,
    arms: undefined,
    baselineArm: undefined,
    solutionAgent: ORACLE_AGENTS.solution,
    onlyFailed: undefined,
    retryErrors: 0,
  };
  // Vitest's own progress goes to stderr: stdout carries the verdict alone.
  const outcome =
    runnable.length > 0
      ? await runVitest(root, options, reporter, true, { testNamePattern: undefined, tagsFilter: undefined })
      : { failed: false };
  if (outcome.interrupted) return 128 + (outcome.interrupted === 'SIGINT' ? 2 : 15);

  const problems = oracleProblems(cases, report?.results ?? []);
  for (const { file, id, problems: why } of problems) process.stdout.write(`${file}: ${id}: ${why.join('; ')}\n`);
  // Which tasks could not have their environment here: a case that does not discriminate may be why.
  for (const { suite, file } of suites)
    process.stdout.write(
      await notReproducedText(relative(root, file).split(sep).join('/'), suite, file, baseImages, engine),
    );
  const total = cases.length;
  if (problems.length > 0) {
    process.stderr.write(`gz-bench: ${problems.length} of ${total} cases do not discriminate\n`);
    return EXIT.failed;
  }
  process.stdout.write(`gz-bench: all ${total} cases fail with a no-op agent and pass with their own solution\n`);
  return EXIT.passed;
}
