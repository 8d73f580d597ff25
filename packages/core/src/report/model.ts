import type { CheckResult } from '../checks/types.js';

/** Which step of a case decided its failure; `tamper` when the agent changed protected paths. */
export type FailedStep = 'setup' | 'agent' | 'tamper' | 'check' | 'harness';

/** What the agent command did. Its exit code is recorded, never asserted. */
export interface AgentRun {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The last few KiB of combined output, for debugging. */
  outputTail: string;
  /** Every byte the agent wrote. */
  outputBytes: number;
  /** Bytes the harness did not keep in memory. */
  outputDroppedBytes: number;
  /**
   * The log file that holds the agent's whole output (at most `maxOutputMB`), relative to the Vitest
   * root when inside it; absent when logs are off.
   */
  log?: string;
}

/** The outcome of one run of one case. Serializable: it travels through Vitest's `task.meta`. */
export interface CaseResult {
  id: string;
  passed: boolean;
  durationMs: number;
  /** Every check of the case in order; checks after the first failure are `skipped`. */
  checkResults: CheckResult[];
  /** The first failure's message. */
  error?: string;
  failedStep?: FailedStep;
  /** Protected paths the agent changed (they were restored before the checks); the case failed. */
  tampered?: string[];
  /** The log file of each setup command that ran, in order (see `AgentRun.log`); absent when logs are off. */
  setupLogs?: string[];
  /** Absent when the agent never ran (a setup command failed). */
  agent?: AgentRun;
  /** The sandbox the case's commands ran in. */
  sandbox?: 'bwrap' | 'none';
  /** Fixture repository entries that were not copied into the workspace, and why. */
  fixtureSkipped?: Array<{ path: string; reason: string }>;
  /** What the run could not do as the suite asked, e.g. a network cut without a sandbox. */
  warnings?: string[];
  /** Absolute path of the kept workspace (only with `keep`). */
  workspace?: string;
}

/** One row of the report: a case result and where its case came from. */
export interface ReportResult extends CaseResult {
  /** The suite's name. */
  suite: string;
  /** The suite file, relative to the Vitest root. */
  file: string;
  /**
   * The case was meant to run but has no result of its own (its worker died, the run was cancelled
   * first): the row fails with `failedStep: 'harness'` and an `error` that says why.
   */
  notRun?: true;
}

/** Counts over every result. */
export interface ReportSummary {
  total: number;
  passed: number;
  /** Every result that did not pass, cases that did not run included. */
  failed: number;
  /** Cases among `failed` that did not run; absent when every case ran. */
  notRun?: number;
}

/** The gz-bench JSON report. Results are one flat list so later fields (agent, trial, usage) extend rows without reshaping. */
export interface Report {
  summary: ReportSummary;
  results: ReportResult[];
  /**
   * Suite files that could not run (an invalid suite) or whose cases did not all run, with the reason;
   * absent when there are none.
   */
  errors?: ReportError[];
  /** What produced the report. */
  meta?: ReportMeta;
}

/** A suite file that could not run, or not to the end. */
export interface ReportError {
  /** The suite file, relative to the Vitest root. */
  file: string;
  message: string;
}

/** Versions that produced a report. */
export interface ReportMeta {
  gzBenchVersion: string;
  vitestVersion?: string;
}
