import type { TrajectorySummary } from '../agents/trajectory/types.js';
import type { BaselineSummary } from '../baseline/baseline-summary.js';
import type { BaselineJudgement } from '../baseline/judge-cell.js';
import type { WorkspaceChanges } from '../changes/types.js';
import type { CheckResult } from '../checks/types.js';
import type { SweepRow } from '../families/sweep.js';
import type { FamilyReport } from '../families/types.js';
import type { SkillTrial } from '../skills/skill-trial.js';
import type { CaseMeta } from '../suite/labels.js';
import type { Scoreboard } from './scoreboard-model.js';

/** Which step of a case decided its failure; `tamper` when the agent changed protected paths. */
export type FailedStep = 'setup' | 'agent' | 'tamper' | 'check' | 'harness';

/**
 * How one trial of one case ended: exactly one of these. Errors (the agent's, the harness's) are told
 * apart from wrong answers and counted apart.
 * - `passed`: every check passed.
 * - `failed`: a check failed.
 * - `timedOut`: the agent ran out of its time.
 * - `tampered`: the agent changed protected paths.
 * - `agentError`: the agent could not start, crashed, or exited non-zero without a passing result.
 * - `overBudget`: the agent went over the run's `maxCostUsd` or `maxTokens`.
 * - `harnessError`: the trial could not run as the suite asks: a setup command failed, or gz-bench
 *   itself could not (a bad temp dir, a vanished fixture).
 * - `notRun`: the trial was planned but has no result (its worker died, the run was cancelled).
 */
export const OUTCOMES = [
  'passed',
  'failed',
  'timedOut',
  'tampered',
  'agentError',
  'overBudget',
  'harnessError',
  'notRun',
] as const;

/** One of `OUTCOMES`. */
export type Outcome = (typeof OUTCOMES)[number];

/** What an agent reported of its own work, read from its whole stdout. Absent fields were not reported. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens served from the provider's cache (read), part of or beside `inputTokens` as the agent counts them. */
  cachedInputTokens?: number;
  /** Tokens written to the provider's cache. */
  cacheWriteTokens?: number;
  costUsd?: number;
  /** `agent` when the cost is the agent's own estimate (it always is today: no provider bill is read). */
  costSource?: 'agent';
  /** The model that served the requests, as the agent reports it. */
  model?: string;
  turns?: number;
  toolCalls?: number;
}

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
  /** What the agent reported of its tokens, cost, model, turns and tool calls; absent when it reported none. */
  usage?: Usage;
}

/** The outcome of one run of one case. Serializable: it travels through Vitest's `task.meta`. */
export interface CaseResult {
  id: string;
  passed: boolean;
  /** How the trial ended; `passed` exactly when `passed` is true. */
  outcome: Outcome;
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
  /** A generated family case: its tool calls against the ideal (see families/types.ts). */
  family?: FamilyReport;
  /** What the agent changed in the workspace (see changes/types.ts); absent when the agent never ran. */
  changes?: WorkspaceChanges;
  /** The agent's steps read from its stream (see agents/trajectory/types.ts); absent for a format gz-bench cannot read. */
  trajectory?: TrajectorySummary;
  /** Each skill of the trial's arm: whether it was used, at which step, and what the agent did to its files. */
  skills?: SkillTrial[];
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
  /** The agent's name when the run names agents (`agents`, `--agent`); absent for the single `cmd`. */
  agentName?: string;
  /** The skill arm of its column when the run names arms (`arms`, `--arm`): the column is `agentName/arm`. */
  arm?: string;
  /** Which trial of its (agent, case) cell this is, from 1; absent when the run has one trial per cell. */
  trial?: number;
  /** The case's tags, its suite's first; absent when it has none. */
  tags?: string[];
  /** The case's metadata over its suite's; absent when neither has any. */
  meta?: CaseMeta;
  /**
   * Runs of this trial, this one included, when `retryErrors` ran it again after an agent or harness
   * error; absent when it ran once.
   */
  attempts?: number;
  /** How each earlier attempt ended (`agentError` or `harnessError`) and its error, oldest first. */
  retriedErrors?: RetriedError[];
  /** How the cell compares with the suite's baseline file; absent when the suite has none. */
  baseline?: BaselineJudgement;
}

/** An attempt of a trial that ended in an error and was run again (`retryErrors`). */
export interface RetriedError {
  outcome: Outcome;
  error?: string;
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
  /**
   * Agents compared over cases and trials: present when the run names agents or has several trials
   * (see scoreboard-model.ts).
   */
  scoreboard?: Scoreboard;
  /** What the suites' baseline files said of this run; absent when no suite has one. */
  baseline?: BaselineSummary;
  /** One row per (family, size, agent): present when the run had family cases (see families/sweep.ts). */
  sweep?: SweepRow[];
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
