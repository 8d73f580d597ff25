import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { assertValidTemplate, loadSuite, type Report, renderJson } from '@gz-bench/core';
import { escapePath } from 'tinyglobby';
import { createVitest } from 'vitest/node';
import { createGzBenchPlugin } from '../node/plugin.js';
import { GzBenchReporter } from '../node/reporter.js';
import type { ResolvedGzBenchOptions } from '../shared/options.js';
import { EXIT } from './exit-codes.js';
import { parseStrict } from './parse-args.js';
import { UsageError } from './usage-error.js';

interface RunFlags {
  cmd?: string;
  timeout?: string;
  json?: boolean;
  keep?: boolean;
}

/** `gz-bench run <suite.json>... --cmd "<template>"`: runs the suites through Vitest with the gz-bench plugin. */
export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<RunFlags>(args, {
    cmd: { type: 'string' },
    timeout: { type: 'string' },
    json: { type: 'boolean' },
    keep: { type: 'boolean' },
  });
  if (positionals.length === 0) throw new UsageError('run needs at least one suite file');
  if (values.cmd === undefined) throw new UsageError('--cmd is required');
  assertValidTemplate(values.cmd);
  const timeout = values.timeout === undefined ? undefined : parseTimeout(values.timeout);

  const files = [...new Set(positionals.map((file) => resolve(file)))];
  // Validate everything first: a bad suite is a usage error (exit 2), not a failed run.
  const suites = await Promise.all(files.map((file, index) => loadSuite(positionals[index] ?? file)));
  const runnable = files.filter((_, index) => (suites[index]?.suite.cases.length ?? 0) > 0);

  const root = commonRoot(files);
  const json = values.json === true;
  let report: Report | undefined;
  const reporter = new GzBenchReporter({ report: false, table: !json, onReport: (latest) => (report = latest) });
  const options: ResolvedGzBenchOptions = {
    cmd: values.cmd,
    include: runnable.map((file) => escapePath(relative(root, file).split(sep).join('/'))),
    timeout,
    keep: values.keep === true,
    report: false,
    concurrency: 1,
    table: !json,
  };

  if (runnable.length > 0) {
    const failedToRun = await runVitest(root, options, reporter, json);
    if (failedToRun && !report) return EXIT.failed;
  }
  report ??= { summary: { total: 0, passed: 0, failed: 0 }, results: [] };
  if (json) {
    await writeOut(renderJson(report));
    // The table lists kept workspaces; with --json, stderr does, so stdout stays one document.
    for (const result of report.results) {
      if (result.workspace !== undefined) process.stderr.write(`kept workspace ${result.id}: ${result.workspace}\n`);
    }
  } else if (runnable.length === 0) await writeOut('no cases ran\n');
  const failed = report.summary.failed > 0 || (report.errors?.length ?? 0) > 0;
  return failed ? EXIT.failed : EXIT.passed;
}

/** Runs Vitest once over the suites; resolves to true when Vitest itself reported failures. */
async function runVitest(
  root: string,
  options: ResolvedGzBenchOptions,
  reporter: GzBenchReporter,
  json: boolean,
): Promise<boolean> {
  // Vite and Vitest keep caches under the root's node_modules; the CLI leaves the user's directory as it found it.
  const cacheDir = await mkdtemp(join(tmpdir(), 'gz-bench-cache-'));
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
        reporters: ['default'],
      },
      { plugins: [createGzBenchPlugin(options, { reporter })], cacheDir },
      // With --json, stdout carries the report alone: Vitest's progress goes to stderr.
      json ? { stdout: process.stderr, stderr: process.stderr } : {},
    );
    const stop = onInterrupt(() => vitest.cancelCurrentRun('keyboard-input'));
    try {
      await vitest.start();
      return vitest.state.getCountOfFailedTests() > 0 || vitest.state.getUnhandledErrors().length > 0;
    } finally {
      stop();
      await vitest.close();
    }
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** Cancels the run on the first Ctrl-C or SIGTERM, so every case's processes are ended; a second one exits at once. */
function onInterrupt(cancel: () => Promise<void>): () => void {
  let interrupted = false;
  const handler = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupted = true;
    process.stderr.write(`\ngz-bench: ${signal} received, stopping the running cases…\n`);
    void cancel();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

function parseTimeout(raw: string): number {
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || raw.trim() === '') {
    throw new UsageError(`--timeout must be a positive number of seconds, got "${raw}"`);
  }
  return seconds;
}

/** The current directory when every file is inside it, else the deepest directory that holds them all. */
function commonRoot(files: string[]): string {
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

function writeOut(text: string): Promise<void> {
  return new Promise((done) => process.stdout.write(text, () => done()));
}
