import { isAbsolute, relative, resolve } from 'node:path';
import { EarlierReportError, type ReportResult } from '@gz-bench/core';
import type { TestProject, Vitest } from 'vitest/node';
import type { ResolvedGzBenchOptions, WorkerOptions } from '../shared/options.js';
import { OptionsError } from './options-error.js';
import { readEarlierRun, resumeForWorkers } from './rerun-report.js';

/** The earlier report a resumed run completes, as the workers and the reporter need it. */
export interface EarlierRun {
  rows: ReportResult[];
  resume: NonNullable<WorkerOptions['resume']>;
}

const loaded = new WeakMap<Vitest, Promise<EarlierRun | undefined>>();

/**
 * Once per run, when it resumes an earlier report (`onlyFailed`): reads and validates it (a bad one
 * stops the run with one line), and warns once for each group of its rows that match nothing here.
 */
export function loadEarlierRun(
  vitest: Vitest,
  project: TestProject['config'],
  options: ResolvedGzBenchOptions,
): Promise<EarlierRun | undefined> {
  const path = options.onlyFailed;
  if (path === undefined) return Promise.resolve(undefined);
  let run = loaded.get(vitest);
  if (run === undefined) {
    run = (async () => {
      const absolute = resolve(vitest.config.root, path);
      const shown = isAbsolute(path) ? relative(process.cwd(), absolute) || absolute : path;
      const scope = {
        root: project.root,
        include: options.include,
        exclude: project.exclude,
        agents: options.agents.map((agent) => agent.name),
        trials: options.trials,
      };
      let earlier: { rows: ReportResult[]; warnings: string[] };
      try {
        earlier = await readEarlierRun(absolute, shown, scope);
      } catch (error) {
        if (error instanceof EarlierReportError) throw new OptionsError(`gz-bench: ${error.message}`);
        throw error;
      }
      for (const warning of earlier.warnings) vitest.logger.warn(`gz-bench: ${warning}`);
      return { rows: earlier.rows, resume: resumeForWorkers(earlier.rows, vitest.config.root) };
    })();
    loaded.set(vitest, run);
  }
  return run;
}
