import * as fs from 'node:fs/promises';
import { evaluateChecks } from '../checks/registry.js';
import type { CheckContext, CheckResult } from '../checks/types.js';
import { outputTail } from '../process/output-buffer.js';
import type { ProcessResult } from '../process/types.js';
import { matchRegexBounded, prewarmRegexMatcher } from '../regex/bounded-match.js';
import type { AgentRun, FailedStep } from '../report/model.js';
import type { Case } from '../suite/schema.js';
import { assertWorkspaceIntact, type CaseArea } from '../workspace/case-area.js';
import type { CommandRunner } from './command-runner.js';
import { describeCommandFailure } from './describe-failure.js';
import { protectedPaths, restoreProtected } from './protect.js';

/** Where the steps of a case run. */
export interface StepContext {
  /** The rendered agent command. */
  command: string;
  area: CaseArea;
  /** The bound of each command and of each regular expression a check tests. */
  timeoutMs: number;
  /** The fixture repository, if the case has one. */
  repo: string | undefined;
  /** Whether secret-looking fixture files were copied, so protected paths compare like with like. */
  allowSecrets: boolean;
  run: CommandRunner;
  /** Ends what the commands so far left running, where no pid namespace did (see leftover-sweep.ts). */
  settleLeftovers: () => Promise<void>;
  /** Ends a regular expression match under way when aborted, as the runner's signal ends commands. */
  signal?: AbortSignal;
}

/** What the steps of a case came to. */
export interface StepsOutcome {
  checkResults: CheckResult[];
  agent?: AgentRun;
  tampered?: string[];
  failure?: { step: FailedStep; message: string };
}

/**
 * Setup commands in order, then the agent command, then the workspace's integrity and the protected
 * paths, then the checks in order, stopping at the first failure.
 */
export async function runSteps(testCase: Case, context: StepContext): Promise<StepsOutcome> {
  const notEvaluated = (): CheckResult[] =>
    testCase.checks.map((check) => ({ ...check, passed: false, skipped: true }));
  // The thread that tests patterns starts while the commands run, not after them.
  if (testCase.checks.some((check) => check.kind === 'outputMatches')) prewarmRegexMatcher();

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
  // Nothing of the setup runs alongside the agent.
  await context.settleLeftovers();

  const result = await context.run(context.command);
  const agent = toAgentRun(result);
  if (result.spawnError !== undefined || result.timedOut || result.aborted || result.limitExceeded) {
    const failure = describeCommandFailure(result, context.timeoutMs) ?? 'failed';
    const step = result.aborted ? 'harness' : 'agent';
    return { checkResults: notEvaluated(), agent, failure: { step, message: `agent command ${failure}` } };
  }
  // Nothing of the agent changes the workspace while it is checked.
  await context.settleLeftovers();

  // Checks must never read through a workspace that the agent swapped for a link elsewhere.
  const broken = await assertWorkspaceIntact(context.area);
  if (broken !== undefined) return { checkResults: notEvaluated(), agent, failure: { step: 'agent', message: broken } };

  let tampered: string[] | undefined;
  if (context.repo !== undefined) {
    const commands = testCase.checks.flatMap((check) => (check.kind === 'command' ? [check.run] : []));
    const paths = await protectedPaths(context.repo, testCase.protect ?? [], commands);
    const restored = await restoreProtected(context.repo, context.area.workspace, paths, {
      allowSecrets: context.allowSecrets,
    });
    if (restored.tampered.length > 0) tampered = restored.tampered;
  }

  const checkContext: CheckContext = {
    workspace: context.area.workspace,
    fs,
    output: result.output.text,
    runCommand: context.run,
    // A regular expression gets the same bound as a command: the case's timeout.
    matchRegex: (pattern, flags, text) =>
      matchRegexBounded({ pattern, flags, text, timeoutMs: context.timeoutMs, signal: context.signal }),
  };
  const checkResults = await evaluateChecks(testCase.checks, checkContext);
  if (tampered) {
    // The checks ran on the restored files, for the record; tampering fails the case whatever they say.
    const message = `the agent tampered with protected paths: ${tampered.join(', ')}`;
    return { checkResults, agent, tampered, failure: { step: 'tamper', message } };
  }
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
