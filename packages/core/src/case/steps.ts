import * as fs from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { summarizeTrajectory } from '../agents/trajectory/assemble.js';
import type { Trajectory, TrajectorySummary } from '../agents/trajectory/types.js';
import { recordChanges } from '../changes/record.js';
import { type SnapshotPlan, takeSnapshot, type WorkspaceSnapshot } from '../changes/snapshot.js';
import type { WorkspaceChanges } from '../changes/types.js';
import { evaluateChecks } from '../checks/registry.js';
import type { CheckContext, CheckResult } from '../checks/types.js';
import { markStage } from '../debug/stage-timing.js';
import { protectedPaths } from '../integrity/protected-paths.js';
import { restoreProtected } from '../integrity/restore.js';
import { installVerifiers } from '../integrity/verifiers.js';
import type { CaseLogs, CommandLogName } from '../logs/case-logs.js';
import { outputTail } from '../process/output-buffer.js';
import type { ProcessResult } from '../process/types.js';
import { matchRegexBounded } from '../regex/bounded-match.js';
import type { AgentRun, Usage } from '../report/model.js';
import type { Case } from '../suite/schema.js';
import { renderCheckCommand } from '../template/render-template.js';
import { assertWorkspaceIntact, type CaseArea } from '../workspace/case-area.js';
import { createCheckDirs } from '../workspace/check-dirs.js';
import { type Budget, budgetExceeded } from './budget.js';
import type { StepTimeoutsMs } from './case-limits.js';
import { checkPhaseEnv } from './command-env.js';
import type { CommandOptions, CommandRunner } from './command-runner.js';
import { describeCommandFailure } from './describe-failure.js';
import type { LiveBudget } from './live-budget.js';
import { agentErrorOverCheck, type TrialFailure } from './outcome.js';
import { freshVerifierLogs, readTaskReward } from './task-layout.js';

/** Where the steps of a case run. */
export interface StepContext {
  /** The rendered agent command. */
  command: string;
  area: CaseArea;
  /** The bound of the agent, of each setup command, and of each command and regular expression a check runs. */
  timeouts: StepTimeoutsMs;
  /** The fixture repository, if the case has one. */
  repo: string | undefined;
  /** Whether secret-looking fixture files were copied, so protected paths compare like with like. */
  allowSecrets: boolean;
  /** The fixture's verifier directory (posix, relative), which the workspace never got. */
  hidden?: readonly string[];
  /** The hidden verifiers to put in place after the agent: directories merged, files by name. */
  verify?: { sources: readonly string[] };
  /** Whether the case has a task's fixed paths, whose /logs/verifier reward decides a command check. */
  task?: boolean;
  /**
   * The environment the checks start from (that of setup, with `{{verify}}`'s variable where the case
   * has verifiers): `checkPhaseEnv` gives them a HOME and temp dir of their own over it.
   */
  checkEnv: Record<string, string>;
  run: CommandRunner;
  /** The agent command's environment, where it differs from that of setup and checks. */
  agentEnv?: Record<string, string>;
  /** Ends what the commands so far left running, where no pid namespace did (see leftover-sweep.ts). */
  settleLeftovers: () => Promise<void>;
  /** Ends a regular expression match under way when aborted, as the runner's signal ends commands. */
  signal?: AbortSignal;
  /** Where each command's whole output goes; no logs without it. */
  logs?: CaseLogs | undefined;
  /** How the agent's usage is read: its stdout goes to `file`, which `read` reads once it has ended. */
  usage?: UsageReader | undefined;
  /** What the agent may report spending before its trial ends as over budget. */
  budget?: Budget | undefined;
  /** How the workspace after setup is snapshotted, to say what the agent changed; nothing is compared without it. */
  changes?: SnapshotPlan | undefined;
  /**
   * After setup and before the snapshot, so that what it puts in the workspace (an arm's skills) is
   * not counted as the agent's: a message when it cannot be done, which fails the case as the harness's.
   */
  afterSetup?: () => Promise<string | undefined>;
  /**
   * Once the agent's whole tree is dead and before the checks, with its trajectory where it has one:
   * what it finds of the arm's skills is given to the checks.
   */
  afterAgent?: (trajectory: Trajectory | undefined) => Promise<Pick<CheckContext, 'skills'>>;
}

/** Reads an agent's usage and its trajectory from the file that holds its whole stdout. */
export interface UsageReader {
  /** Outside the workspace, in the case area. */
  file: string;
  read(file: string): Promise<{ usage: Usage | undefined; trajectory?: Trajectory }>;
  /**
   * Watches the stdout on its way to `sink` against `budget` while the agent runs, for formats that
   * report usage as they go (see live-budget.ts); undefined for the others.
   */
  watch?(sink: Writable, budget: Budget): LiveBudget | undefined;
}

// Of setup commands nothing of the output is reported, and of command checks the last 2000 characters
// (at most 8000 bytes): this much at the head and at the tail is plenty. Their whole output is in their
// logs. The agent's output keeps the full capture, which outputMatches tests.
const STEP_OUTPUT_LIMIT_BYTES = 16 * 1024;

/** What the steps of a case came to. */
export interface StepsOutcome {
  checkResults: CheckResult[];
  /** The logs of the setup commands that ran, as the report names them. */
  setupLogs?: string[];
  agent?: AgentRun;
  /** The agent's trajectory, where its format is known (its steps are in `trajectory.file`). */
  trajectory?: TrajectorySummary;
  /** What the agent changed in the workspace, when it ran and its workspace was compared. */
  changes?: WorkspaceChanges;
  tampered?: string[];
  failure?: TrialFailure;
  /** Logs that could not be written. */
  warnings?: string[];
}

/**
 * Setup commands in order, then the agent command, then the workspace's integrity and the protected
 * paths, then the checks in order, stopping at the first failure.
 */
export async function runSteps(testCase: Case, context: StepContext): Promise<StepsOutcome> {
  const logged = new LoggedRunner(context);
  let trajectory: TrajectorySummary | undefined;
  let changes: WorkspaceChanges | undefined;
  const withLogs = (outcome: StepsOutcome): StepsOutcome => ({
    ...outcome,
    ...(trajectory && { trajectory }),
    ...(changes && { changes }),
    ...(logged.setupLogs.length > 0 && { setupLogs: logged.setupLogs }),
    ...(logged.warnings.length > 0 && { warnings: logged.warnings }),
  });
  const notEvaluated = (): CheckResult[] =>
    testCase.checks.map((check) => ({ ...check, passed: false, skipped: true }));
  for (const [index, line] of (testCase.setup ?? []).entries()) {
    const { result, log } = await logged.run(line, `setup-${index + 1}`, {
      outputLimitBytes: STEP_OUTPUT_LIMIT_BYTES,
      timeoutMs: context.timeouts.setup,
    });
    if (log !== undefined) logged.setupLogs.push(log);
    const failure = describeCommandFailure(result, context.timeouts.setup);
    if (failure !== undefined) {
      const step = result.aborted ? 'harness' : 'setup';
      return withLogs({
        checkResults: notEvaluated(),
        failure: { step, message: `setup command ${index + 1} ${failure}: ${line}` },
      });
    }
  }
  // Nothing of the setup runs alongside the agent.
  await context.settleLeftovers();
  const unprepared = await context.afterSetup?.();
  if (unprepared !== undefined) {
    return withLogs({ checkResults: notEvaluated(), failure: { step: 'harness', message: unprepared } });
  }
  const snapshot = await snapshotWorkspace(context, logged.warnings);

  const stdout = context.usage === undefined ? undefined : await openStdoutFile(context.usage.file, logged.warnings);
  const live =
    stdout === undefined || context.budget === undefined ? undefined : context.usage?.watch?.(stdout, context.budget);
  markStage(`case ${testCase.id}: setup done, the agent starts`);
  const { result, log: agentLog } = await logged.run(context.command, 'agent', {
    ...(context.agentEnv !== undefined && { env: context.agentEnv }),
    ...(stdout !== undefined && { stdoutLog: live?.stream ?? stdout }),
    ...(live && { signal: live.signal }),
  });
  markStage(`case ${testCase.id}: the agent has exited`);
  const reading = stdout === undefined ? undefined : await readUsage(context.usage, logged.warnings);
  const stopped = live?.stopped();
  // Stopped at its budget, the agent never printed its closing summary: its figures are those at the stop.
  const usage = stopped === undefined ? reading?.usage : { ...reading?.usage, ...stopped.usage };
  if (reading?.trajectory) trajectory = await writeTrajectory(reading.trajectory, context.logs, logged.warnings);
  const agent: AgentRun = {
    ...toAgentRun(result),
    ...(agentLog !== undefined && { log: agentLog }),
    ...(usage !== undefined && { usage }),
  };
  // What the agent changed, once nothing of it runs any more and before protected paths are restored:
  // as the agent left them. Also of an agent that timed out or went over budget; not of one that
  // never started, nor of a run the harness stopped (a budget's stop is the agent's own doing).
  const ran =
    result.spawnError === undefined && context.signal?.aborted !== true && (!result.aborted || stopped !== undefined);
  if (ran) await context.settleLeftovers();
  const evidence = await context.afterAgent?.(reading?.trajectory);
  const broken = ran ? await assertWorkspaceIntact(context.area) : undefined;
  if (snapshot !== undefined && ran && broken === undefined) {
    changes = await compareChanges(snapshot, context, logged.warnings);
  }
  if (stopped !== undefined && !result.timedOut && result.spawnError === undefined) {
    const message = `${stopped.reason}; it was stopped as its output reported it`;
    return withLogs({
      checkResults: notEvaluated(),
      agent,
      failure: { step: 'agent', message, outcome: 'overBudget' },
    });
  }
  if (result.spawnError !== undefined || result.timedOut || result.aborted || result.limitExceeded) {
    const failure = describeCommandFailure(result, context.timeouts.agent) ?? 'failed';
    const step = result.aborted ? 'harness' : 'agent';
    return withLogs({ checkResults: notEvaluated(), agent, failure: { step, message: `agent command ${failure}` } });
  }
  const overBudget = usage === undefined ? undefined : budgetExceeded(usage, context.budget);
  if (overBudget !== undefined) {
    return withLogs({
      checkResults: notEvaluated(),
      agent,
      failure: { step: 'agent', message: overBudget, outcome: 'overBudget' },
    });
  }

  // Checks must never read through a workspace that the agent swapped for a link elsewhere.
  if (broken !== undefined) {
    return withLogs({ checkResults: notEvaluated(), agent, failure: { step: 'agent', message: broken } });
  }

  let tampered: string[] | undefined;
  if (context.repo !== undefined) {
    const commands = testCase.checks.flatMap((check) => (check.kind === 'command' ? [check.run] : []));
    const paths = await protectedPaths(context.repo, testCase.protect ?? [], commands);
    const restored = await restoreProtected(context.repo, context.area.workspace, paths, {
      allowSecrets: context.allowSecrets,
      ...(context.hidden !== undefined && { hidden: context.hidden }),
    });
    if (restored.tampered.length > 0) tampered = restored.tampered;
  }

  // Nothing the agent left in its HOME or temp dir (a usercustomize.py, an ~/.npmrc) may reach the checks.
  // Only commands read a HOME: checks of files and output need none, and two directories fewer to make
  // and remove are much of what a trivial case costs on a busy file system.
  let checkEnv: ReturnType<typeof checkPhaseEnv> | undefined;
  if (startsCommands(testCase, context)) {
    try {
      checkEnv = checkPhaseEnv(context.checkEnv, await createCheckDirs(context.area));
      // createCheckDirs removed the agent's /logs: no reward it wrote there reaches the checks.
      if (context.task === true) await freshVerifierLogs(context.area);
    } catch (error) {
      const message = `could not make the checks' HOME and temp dir: ${errorCode(error)}`;
      return withLogs({ checkResults: notEvaluated(), agent, failure: { step: 'harness', message } });
    }
  }

  if (context.verify !== undefined) {
    try {
      await installVerifiers(context.verify.sources, context.area);
    } catch (error) {
      const message = `could not put the verifiers in place: ${errorCode(error)}`;
      return withLogs({ checkResults: notEvaluated(), agent, failure: { step: 'harness', message } });
    }
  }

  const checkContext: CheckContext = {
    workspace: context.area.workspace,
    fs,
    // What outputMatches tests: the capture in memory, the whole output up to 2 MiB, else its first
    // and last MiB around the marker line. The log has all of it, but reading gigabytes back into
    // memory to match them is what the capture's bound is there to prevent.
    output: result.output.text,
    runCommand: context.run,
    commandTimeoutMs: context.timeouts.check,
    agentExit: { exitCode: result.exitCode, signal: result.signal },
    ...(evidence?.skills && { skills: evidence.skills }),
    // A regular expression gets the same bound as a check's command.
    matchRegex: (pattern, flags, text) =>
      matchRegexBounded({ pattern, flags, text, timeoutMs: context.timeouts.check, signal: context.signal }),
  };
  const checkLogs = new Map<number, string>();
  const contextOfCheck = (index: number): CheckContext => ({
    ...checkContext,
    runCommand: async (command) => {
      // startsCommands said no command check runs: one that does anyway must not run with the agent's HOME.
      if (checkEnv === undefined) throw new Error('a check ran a command where none was expected');
      const { result: checkResult, log } = await logged.run(renderCheckCommand(command), `check-${index + 1}`, {
        outputLimitBytes: STEP_OUTPUT_LIMIT_BYTES,
        timeoutMs: context.timeouts.check,
        env: checkEnv,
      });
      if (log !== undefined) checkLogs.set(index, log);
      if (context.task !== true || checkResult.spawnError !== undefined || checkResult.aborted) return checkResult;
      const reward = await readTaskReward(context.area);
      return reward === undefined ? checkResult : { ...checkResult, reward };
    },
  });
  markStage(`case ${testCase.id}: command checks done, the rest are evaluated`);
  const checkResults = (await evaluateChecks(testCase.checks, contextOfCheck)).map((check, index) => {
    const log = checkLogs.get(index);
    return log === undefined ? check : { ...check, log };
  });
  if (tampered) {
    // The checks ran on the restored files, for the record; tampering fails the case whatever they say.
    const message = `the agent tampered with protected paths: ${tampered.join(', ')}`;
    return withLogs({ checkResults, agent, tampered, failure: { step: 'tamper', message } });
  }
  const failed = checkResults.find((check) => !check.passed && !check.skipped);
  const failure =
    failed && agentErrorOverCheck({ step: 'check', message: failed.message ?? `${failed.kind} check failed` }, agent);
  return withLogs({ checkResults, agent, ...(failure && { failure }) });
}

/**
 * Runs the case's commands each with a log of its own, when the case has logs. A log that cannot be
 * opened or written costs the case its log and a warning, never its outcome.
 */
class LoggedRunner {
  readonly setupLogs: string[] = [];
  readonly warnings: string[] = [];

  constructor(private readonly context: StepContext) {}

  async run(
    line: string,
    name: CommandLogName,
    options: Omit<CommandOptions, 'log'> = {},
  ): Promise<{ result: ProcessResult; log: string | undefined }> {
    const opened = await this.#open(name);
    const result = await this.context.run(line, opened === undefined ? options : { ...options, log: opened.stream });
    if (opened !== undefined && result.log?.error !== undefined) {
      this.warnings.push(`the log ${opened.display} is incomplete: writing it failed (${result.log.error})`);
    }
    return { result, log: opened?.display };
  }

  async #open(name: CommandLogName) {
    const logs = this.context.logs;
    if (logs === undefined) return undefined;
    try {
      return await logs.open(name);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      this.warnings.push(`the log ${logs.location.display}/${name}.log could not be created (${reason})`);
      return undefined;
    }
  }
}

/** The workspace as setup left it, or undefined (and a warning) when it cannot be taken. */
async function snapshotWorkspace(context: StepContext, warnings: string[]): Promise<WorkspaceSnapshot | undefined> {
  if (context.changes === undefined) return undefined;
  try {
    return await takeSnapshot(context.area.workspace, context.changes);
  } catch (error) {
    warnings.push(
      `what the agent changed is not known: the workspace after setup could not be read (${errorCode(error)})`,
    );
    return undefined;
  }
}

/** What the agent changed, or undefined (and a warning) when the workspace cannot be compared. */
async function compareChanges(
  snapshot: WorkspaceSnapshot,
  context: StepContext,
  warnings: string[],
): Promise<WorkspaceChanges | undefined> {
  try {
    return await recordChanges(snapshot, context.logs, warnings);
  } catch (error) {
    warnings.push(`what the agent changed is not known: the workspace could not be compared (${errorCode(error)})`);
    return undefined;
  }
}

/** The file the agent's stdout goes to, or undefined (and a warning) when it cannot be made. */
async function openStdoutFile(file: string, warnings: string[]): Promise<Writable | undefined> {
  try {
    const handle = await fs.open(file, 'wx', 0o600);
    return handle.createWriteStream();
  } catch (error) {
    warnings.push(`the agent's usage could not be read: its stdout file could not be made (${errorCode(error)})`);
    return undefined;
  }
}

/** The usage (and trajectory) the agent reported, or undefined (and a warning) when its stdout cannot be read. */
async function readUsage(
  reader: UsageReader | undefined,
  warnings: string[],
): Promise<{ usage: Usage | undefined; trajectory?: Trajectory } | undefined> {
  if (reader === undefined) return undefined;
  try {
    return await reader.read(reader.file);
  } catch (error) {
    warnings.push(`the agent's usage could not be read (${errorCode(error)})`);
    return undefined;
  }
}

/** `trajectory.json` beside the agent's log, and the row's summary of it (without `file` when it has no logs). */
async function writeTrajectory(
  trajectory: Trajectory,
  logs: CaseLogs | undefined,
  warnings: string[],
): Promise<TrajectorySummary> {
  const format = String(trajectory.extra?.format);
  if (logs === undefined) return summarizeTrajectory(trajectory, format);
  try {
    const file = await logs.writeFile('trajectory.json', `${JSON.stringify(trajectory, null, 2)}\n`);
    return summarizeTrajectory(trajectory, format, file);
  } catch (error) {
    warnings.push(`the trajectory ${logs.location.display}/trajectory.json could not be written (${errorCode(error)})`);
    return summarizeTrajectory(trajectory, format);
  }
}

/** Whether the checks start processes: a `command` check, or hidden verifiers (which `command` checks run). */
function startsCommands(testCase: Case, context: StepContext): boolean {
  return context.verify !== undefined || testCase.checks.some((check) => check.kind === 'command');
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
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
