import { dirname } from 'node:path';
import {
  type AgentDefinition,
  type AgentSettings,
  agentTrajectoryFormat,
  type Budget,
  type Case,
  type CaseResult,
  caseBudgetMs,
  caseLogLocation,
  type LoadedArm,
  markStage,
  type ReportResult,
  type ResolvedSandbox,
  runCase,
  type Suite,
  skillPlacement,
  type TrajectoryOptions,
  withSuiteSettings,
} from '@gz-bench/core/run';
import type { SlotAddress, WorkerOptions } from '../shared/options.js';
import { agentPoolKey } from '../shared/slot-protocol.js';
import { withUserEnv } from '../shared/user-env.js';
import { CaseBudgetError, runWithinBudget } from './case-budget.js';
import { cutShortByCancel } from './interrupted-trial.js';
import { acquireSlot, RunCancelledError } from './slot-client.js';

// How long a cancelled case may take to end its processes and remove its workspace before Vitest moves on.
export const SETTLE_TIMEOUT_MS = 30_000;

/** One run of one case by one agent, as a report row needs it. */
export type TrialResult = CaseResult &
  Pick<ReportResult, 'agentName' | 'arm' | 'trial' | 'notRun' | 'attempts' | 'retriedErrors'>;

/** What a trial runs, and where. */
export interface TrialPlan {
  suite: Suite;
  /** Absolute path of the suite file. */
  file: string;
  testCase: Case;
  /** A named agent of the run, or undefined for the run's one `cmd`. */
  agent: AgentDefinition | undefined;
  /** The skill arm of the trial's column, whose skills go where the agent's CLI looks for them. */
  arm: LoadedArm | undefined;
  /** The agent command template. */
  cmd: string;
  /** Which trial, from 1; `trials` says how many the cell has. */
  trial: number;
  trials: number;
  options: WorkerOptions;
  slots: SlotAddress;
  sandbox: ResolvedSandbox;
}

/**
 * Takes a slot of the run (and of the agent's own pool), then runs the case once within its budget.
 * Rejects when the trial was cancelled before it started, or the harness could not run it at all.
 */
export async function runTrial(plan: TrialPlan, signal: AbortSignal): Promise<TrialResult> {
  const { testCase, options } = plan;
  const label = {
    ...(plan.agent && { agentName: plan.agent.name }),
    ...(plan.arm && { arm: plan.arm.name }),
    ...(plan.trials > 1 && { trial: plan.trial }),
  };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    // The slot comes first: a trial waiting for one has no area and no process yet, and a run
    // cancelled meanwhile leaves it not run.
    let cancelled = false;
    const slot = await acquireSlot(plan.slots.path, {
      token: plan.slots.token,
      signal: controller.signal,
      onCancel: () => {
        cancelled = true;
        controller.abort(new RunCancelledError());
      },
      ...(plan.agent?.concurrency !== undefined && { keys: [agentPoolKey(plan.agent.name)] }),
    });
    markStage(`case ${testCase.id}: its slot is taken`);
    try {
      controller.signal.throwIfAborted();
      const budgetMs = caseBudgetMs(testCase, options.timeout);
      const { value, exceeded } = await runWithinBudget(budgetMs, SETTLE_TIMEOUT_MS, controller, () =>
        runCase(withRunBaseImages(withSuiteSettings(plan.suite, testCase), options), {
          cmd: plan.cmd,
          keep: options.keep,
          // The area goes as this worker's next command starts, or at the end of the file (define-suite.ts).
          deferRemoval: true,
          signal: controller.signal,
          suiteDir: dirname(plan.file),
          env: harnessEnv(options),
          allowEnv: options.allowEnv,
          allowSecrets: options.allowSecrets,
          sandbox: plan.sandbox,
          engine: options.engine,
          ...(options.secretPaths && { secretPaths: options.secretPaths }),
          ...(plan.agent && { agent: agentSettings(plan.agent) }),
          ...(plan.agent?.usage && { usage: plan.agent.usage }),
          ...(plan.agent && trajectoryOf(plan.agent)),
          ...(budgetOf(options) && { budget: budgetOf(options) }),
          // An arm without skills (the baseline's `none`) installs nothing and says nothing of skills.
          ...(plan.arm !== undefined &&
            plan.arm.skills.length > 0 && {
              skills: { skills: plan.arm.skills, placement: skillPlacement(plan.agent, plan.arm.scope) },
            }),
          trial: plan.trial,
          // The oracle run: the case's own solution plays the agent.
          ...(plan.agent !== undefined &&
            plan.agent.name === options.solutionAgent && { solution: testCase.solution ?? [] }),
          ...(options.timeout !== undefined && { timeoutSec: options.timeout }),
          ...(options.logs && {
            logs: caseLogLocation({
              logsDir: options.logs.dir,
              root: options.logs.root,
              suiteFile: plan.file,
              caseId: testCase.id,
              run: runSegments(plan),
            }),
          }),
        }),
      );
      const result = withServedModel({ ...(exceeded ? overBudget(value, budgetMs) : value), ...label }, plan.agent);
      markStage(`case ${testCase.id}: ${result.outcome ?? (result.passed ? 'passed' : 'failed')}, its processes ended`);
      return cancelled ? cutShortByCancel(result) : result;
    } finally {
      // Only now: runCase resolves once the case's processes are dead. Its area, left to remove, runs nothing.
      slot.release();
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The case with the run's base images (`--base-image`), which win over its own. */
function withRunBaseImages(testCase: Case, options: WorkerOptions): Case {
  const run = options.baseImages ?? {};
  if (Object.keys(run).length === 0) return testCase;
  return { ...testCase, baseImages: { ...testCase.baseImages, ...run } };
}

const harnessEnvs = new WeakMap<WorkerOptions, NodeJS.ProcessEnv>();

/** The environment cases draw from: the worker's, with the user's values where Vite and Vitest set theirs. */
function harnessEnv(options: WorkerOptions): NodeJS.ProcessEnv {
  let env = harnessEnvs.get(options);
  if (env === undefined) {
    env = withUserEnv(process.env, options.userEnv);
    harnessEnvs.set(options, env);
  }
  return env;
}

/** The run's budget of each trial, when it sets one. */
function budgetOf(options: WorkerOptions): Budget | undefined {
  if (options.maxCostUsd === undefined && options.maxTokens === undefined && options.maxTurns === undefined) {
    return undefined;
  }
  return {
    ...(options.maxCostUsd !== undefined && { maxCostUsd: options.maxCostUsd }),
    ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
    ...(options.maxTurns !== undefined && { maxTurns: options.maxTurns }),
  };
}

/**
 * Warns when the model that served the agent is not the one it was asked for: a provider's fallback
 * or a misread setting, which would put the wrong model's numbers under the agent's name.
 */
function withServedModel(result: TrialResult, agent: AgentDefinition | undefined): TrialResult {
  const served = result.agent?.usage?.model;
  const asked = agent?.model;
  if (served === undefined || asked === undefined) return result;
  const same = served.toLowerCase().includes(asked.toLowerCase()) || asked.toLowerCase().includes(served.toLowerCase());
  if (same) return result;
  const warning = `agent "${agent?.name}" asked for model ${asked}, and ${served} served it`;
  return { ...result, warnings: [...(result.warnings ?? []), warning] };
}

/** How the agent's trajectory is read, when its definition names (or implies) a stream format. */
function trajectoryOf(agent: AgentDefinition): { trajectory: TrajectoryOptions } | undefined {
  const format = agentTrajectoryFormat(agent);
  if (format === undefined) return undefined;
  const { name, preset, model } = agent;
  return {
    trajectory: {
      format,
      agent: { name, ...(preset !== undefined && { preset }), ...(model !== undefined && { model }) },
    },
  };
}

/** What of the agent's definition shapes its environment and HOME. */
function agentSettings(agent: AgentDefinition): AgentSettings {
  return {
    ...(agent.env && { env: agent.env }),
    ...(agent.allowEnv && { allowEnv: agent.allowEnv }),
    ...(agent.home && { home: agent.home }),
    ...(agent.login && { login: agent.login }),
    ...(agent.loginOptional && { loginOptional: true }),
  };
}

/** Log levels below the case: the agent's name, the arm and the trial, when the run has them. */
function runSegments(plan: TrialPlan): string[] {
  return [
    ...(plan.agent ? [plan.agent.name] : []),
    ...(plan.arm ? [plan.arm.name] : []),
    ...(plan.trials > 1 ? [`trial-${plan.trial}`] : []),
  ];
}

/** A case stopped at its budget fails with that, not with the interruption its commands saw. */
function overBudget(result: CaseResult, budgetMs: number): CaseResult {
  return {
    ...result,
    passed: false,
    outcome: 'timedOut',
    error: new CaseBudgetError(budgetMs).message,
    failedStep: 'harness',
  };
}
