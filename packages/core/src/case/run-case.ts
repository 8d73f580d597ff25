import * as fs from 'node:fs/promises';
import { evaluateChecks } from '../checks/registry.js';
import type { CheckContext, CheckResult } from '../checks/types.js';
import { DEFAULT_KILL_GRACE_MS, outputTail, runProcess } from '../process/run-process.js';
import type { ProcessResult } from '../process/types.js';
import type { AgentRun, CaseResult, FailedStep } from '../report/model.js';
import { type Case, DEFAULT_TIMEOUT_SEC } from '../suite/schema.js';

/** The longest delay a Node.js timer can wait. */
const MAX_TIMER_MS = 2 ** 31 - 1;

import { DIR_ENV, PROMPT_ENV, renderTemplate } from '../template/render-template.js';
import { createWorkspace, releaseWorkspace, removeWorkspace } from '../workspace/workspace.js';
import { agentBaseEnv } from './agent-env.js';
import { describeCommandFailure } from './describe-failure.js';

/** How to run a case. */
export interface RunCaseOptions {
  /** The agent command template, with `{{prompt}}` and `{{dir}}` placeholders. */
  cmd: string;
  /** Overrides the case's `timeoutSec` (seconds). */
  timeoutSec?: number;
  /** Keeps the workspace and reports its path. @default false */
  keep?: boolean;
  /** Environment the commands start from. @default process.env less the harness's own variables */
  env?: Record<string, string>;
  /** Ends every running command of the case (its whole process tree) when aborted. */
  signal?: AbortSignal;
  /** Directory in which the workspace is created. @default os.tmpdir() */
  tmpDir?: string;
  /** Time between SIGTERM and SIGKILL when a command is ended. @default 2000 */
  killGraceMs?: number;
}

/** The seconds that bound each command of a case. */
export function caseTimeoutSec(testCase: Case, override?: number): number {
  return override ?? testCase.timeoutSec ?? DEFAULT_TIMEOUT_SEC;
}

/**
 * The longest a whole case can take when every command runs to its timeout: a safety net for the
 * test runner's own timeout, which must never fire before the case's bounds do.
 */
export function caseBudgetMs(testCase: Case, override?: number): number {
  const commands = (testCase.setup?.length ?? 0) + 1 + testCase.checks.filter((c) => c.kind === 'command').length;
  const perCommandMs = caseTimeoutSec(testCase, override) * 1000 + DEFAULT_KILL_GRACE_MS + 1000;
  // Timers fire at once beyond 2^31-1 ms, which would fail the case immediately instead of never.
  return Math.min(commands * perCommandMs + 30_000, MAX_TIMER_MS);
}

/**
 * Runs one case in a fresh workspace: setup commands in order, then the agent command, then the
 * checks in order, stopping at the first failure; then removes the workspace unless kept.
 * A failing command or check is a failed result; only faults of the harness itself throw.
 */
export async function runCase(testCase: Case, options: RunCaseOptions): Promise<CaseResult> {
  const started = performance.now();
  const command = renderTemplate(options.cmd);
  const timeoutMs = caseTimeoutSec(testCase, options.timeoutSec) * 1000;
  const workspace = await createWorkspace(options.tmpDir);
  const env = {
    ...(options.env ?? agentBaseEnv()),
    [PROMPT_ENV]: testCase.prompt,
    [DIR_ENV]: workspace,
  };
  const run = (line: string) =>
    runProcess({
      command: line,
      cwd: workspace,
      env,
      timeoutMs,
      ...(options.signal && { signal: options.signal }),
      ...(options.killGraceMs !== undefined && { killGraceMs: options.killGraceMs }),
    });

  try {
    const outcome = await runSteps(testCase, { command, workspace, timeoutMs, run });
    return {
      id: testCase.id,
      passed: outcome.failure === undefined,
      durationMs: Math.round(performance.now() - started),
      checkResults: outcome.checkResults,
      ...(outcome.failure && { error: outcome.failure.message, failedStep: outcome.failure.step }),
      ...(outcome.agent && { agent: outcome.agent }),
      ...(options.keep && { workspace }),
    };
  } finally {
    if (options.keep) releaseWorkspace(workspace);
    else await removeWorkspace(workspace);
  }
}

interface StepContext {
  command: string;
  workspace: string;
  timeoutMs: number;
  run: (line: string) => Promise<ProcessResult>;
}

interface StepsOutcome {
  checkResults: CheckResult[];
  agent?: AgentRun;
  failure?: { step: FailedStep; message: string };
}

async function runSteps(testCase: Case, context: StepContext): Promise<StepsOutcome> {
  const notEvaluated = (): CheckResult[] =>
    testCase.checks.map((check) => ({ ...check, passed: false, skipped: true }));

  for (const [index, line] of (testCase.setup ?? []).entries()) {
    const result = await context.run(line);
    const failure = describeCommandFailure(result, context.timeoutMs);
    if (failure !== undefined) {
      const step = result.aborted ? 'harness' : 'setup';
      return {
        checkResults: notEvaluated(),
        failure: { step, message: `setup command ${index + 1} ${failure}: ${line}` },
      };
    }
  }

  const result = await context.run(context.command);
  const agent = toAgentRun(result);
  if (result.spawnError !== undefined || result.timedOut || result.aborted) {
    const failure = describeCommandFailure(result, context.timeoutMs) ?? 'failed';
    const step = result.aborted ? 'harness' : 'agent';
    return { checkResults: notEvaluated(), agent, failure: { step, message: `agent command ${failure}` } };
  }

  const checkContext: CheckContext = {
    workspace: context.workspace,
    fs,
    output: result.output.text,
    runCommand: context.run,
  };
  const checkResults = await evaluateChecks(testCase.checks, checkContext);
  const failed = checkResults.find((check) => !check.passed && !check.skipped);
  return {
    checkResults,
    agent,
    ...(failed && { failure: { step: 'check', message: failed.message ?? `${failed.kind} check failed` } }),
  };
}

function toAgentRun(result: ProcessResult): AgentRun {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: Math.round(result.durationMs),
    outputTail: outputTail(result.output.text),
    outputBytes: result.output.totalBytes,
    outputDroppedBytes: result.output.droppedBytes,
  };
}
