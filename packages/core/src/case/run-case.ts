import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { UsageExtractor } from '../agents/definition.js';
import { assembleTrajectory } from '../agents/trajectory/assemble.js';
import { readAgentOutput } from '../agents/usage/extract-usage.js';
import { resolveChanges } from '../changes/settings.js';
import { changesFence, type SnapshotPlan } from '../changes/snapshot.js';
import { agentProgram } from '../environment/agent-program.js';
import { type CaseImage, caseImage, seedFromImage } from '../environment/case-image.js';
import type { EngineMode } from '../environment/engines/engines.js';
import type { HostFallback } from '../environment/host-fallback.js';
import { createImageRoot, type ImageRoot, ImageRootError, imageEnv, imagePathOf } from '../environment/image-root.js';
import { type FamilyCase, startFamilyCase } from '../families/family-case.js';
import { TOOL_DIR_ENV, TOOL_SLOTS_ENV } from '../families/tool-scripts.js';
import type { FamilyReport } from '../families/types.js';
import { solutionCommand } from '../integrity/oracle.js';
import { hiddenFixturePath, settingPaths, verifyDirOf } from '../integrity/verifiers.js';
import { CaseLogs } from '../logs/case-logs.js';
import type { CaseLogLocation } from '../logs/log-paths.js';
import { commandLaunch } from '../process/command-launch.js';
import { caseEnded } from '../process/garbage.js';
import type { ResolvedSandbox } from '../process/sandbox.js';
import { CASE_TOKEN_ENV, newCaseToken } from '../process/sweep.js';
import { WorkdirError, type WorkdirLayout, workdirLayout } from '../process/workdir-layout.js';
import type { CaseResult, FailedStep } from '../report/model.js';
import { type InstalledSkill, installSkills, type SkillPlacement } from '../skills/install-skills.js';
import type { Skill } from '../skills/load-skill.js';
import { type SkillTrial, skillTrials } from '../skills/skill-trial.js';
import type { Case } from '../suite/schema.js';
import { suitePath } from '../suite/suite-path.js';
import { DIR_ENV, renderTemplate, VERIFY_DIR_ENV } from '../template/render-template.js';
import { type CaseArea, createCaseArea, releaseCaseArea, removeCaseArea } from '../workspace/case-area.js';
import { seedCaseHome } from '../workspace/case-home.js';
import { FixtureError } from '../workspace/copy-fixture.js';
import { areaCleanupProblem, deferAreaRemoval } from '../workspace/deferred-removal.js';
import { GitBaselineError } from '../workspace/git-baseline.js';
import { writePromptFile } from '../workspace/prompt-file.js';
import { tempDirFault } from '../workspace/temp-dir.js';
import { type AgentSettings, agentSettingsProblem } from './agent-settings.js';
import type { Budget } from './budget.js';
import { caseByteLimits, caseStepTimeoutsMs } from './case-limits.js';
import { commandEnvs } from './command-env.js';
import { type CommandRunner, createCommandRunner } from './command-runner.js';
import { LeftoverSweep } from './leftover-sweep.js';
import { liveBudget } from './live-budget.js';
import { agentErrorOverCheck, outcomeOf, type TrialFailure } from './outcome.js';
import { type PreparedWorkspace, prepareWorkspace } from './prepare-workspace.js';
import { inlinePromptProblem, promptEnv } from './prompt-delivery.js';
import { copyStartingFiles, hiddenEntries } from './starting-files.js';
import { runSteps, type StepsOutcome, type UsageReader } from './steps.js';
import { createTaskLogs, installSolutionFiles, SOLUTION_DIR_ENV, TASK_PATHS, taskBinds } from './task-layout.js';

export { caseBudgetMs, caseStepTimeoutsMs, caseTimeoutSec } from './case-limits.js';

/** How to run a case. */
export interface RunCaseOptions {
  /** The agent command template, with `{{prompt}}`, `{{promptFile}}` and `{{dir}}` placeholders. */
  cmd: string;
  /** Overrides the case's `timeoutSec` (seconds). */
  timeoutSec?: number;
  /** Keeps the case's files and reports the workspace path. @default false */
  keep?: boolean;
  /**
   * Resolves once the case's processes are dead, leaving its area to be removed as the process's next
   * command starts (see workspace/deferred-removal.ts); `settleDeferredRemovals` removes what is left
   * and says what could not be. @default false: resolves once the area is gone
   */
  deferRemoval?: boolean;
  /** Directory of the suite file, against which a case's `repo` resolves. @default process.cwd() */
  suiteDir?: string;
  /** Further variables of the harness to pass to the commands, beside the case's own `allowEnv`. */
  allowEnv?: readonly string[];
  /** Copy secret-looking files of a fixture repository too. @default false */
  allowSecrets?: boolean;
  /** The sandbox the commands run in, as `resolveSandbox` decided it. @default { kind: 'none' } */
  sandbox?: ResolvedSandbox;
  /** What builds an environment's Dockerfile and holds its named images. @default 'auto' */
  engine?: EngineMode;
  /** An arm's skills, installed after setup where the agent's CLI looks for them; their use is reported. */
  skills?: { skills: readonly Skill[]; placement: SkillPlacement };
  /** The harness's environment, which the case's minimal environment is drawn from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Ends every running command of the case (its whole process tree) when aborted. */
  signal?: AbortSignal;
  /** Directory in which the case's files are created. @default os.tmpdir() */
  tmpDir?: string;
  /** Time between SIGTERM and SIGKILL when a command is ended. @default 2000 */
  killGraceMs?: number;
  /**
   * Where the whole output of each of the case's commands is logged (see `caseLogLocation`): a
   * directory outside the case area, of this case alone. @default no logs
   */
  logs?: CaseLogLocation;
  /**
   * What the agent command runs with beyond the case's settings: its own `env` constants and
   * `allowEnv` (the agent command alone gets them), files its case HOME starts with, and login paths
   * under the real HOME copied into it. See `agentSettingsProblem` for what is refused.
   */
  agent?: AgentSettings;
  /** Which trial of its (agent, case) cell this run is, from 1: its commands see it as `GZ_BENCH_TRIAL`. */
  trial?: number;
  /** How the agent's usage is read from its whole stdout; none is read without it. */
  usage?: UsageExtractor;
  /** What the agent may report spending before its trial ends as `overBudget` (needs `usage`). */
  budget?: Budget;
  /** Reads the agent's steps from its stdout in this format into `trajectory.json`; none without it. */
  trajectory?: TrajectoryOptions;
  /**
   * Verifier and solution paths of the run's other cases (absolute), shown empty to this case's
   * commands under bwrap as its own are: no agent reads another case's tests.
   */
  secretPaths?: readonly string[];
  /**
   * Runs these solution lines as the agent instead of `cmd` (see `solutionCommand`): the oracle run
   * of `gz-bench check-suite`.
   */
  solution?: readonly string[];
}

// A single JSON document is parsed whole, so it must fit in memory: the case's maxOutputMB, or this.
const DEFAULT_USAGE_BYTES = 256 * 1024 * 1024;

/** What a trial's trajectory is read as: the stream format, and the agent it names. */
export interface TrajectoryOptions {
  /** A stream format's name (see TRAJECTORY_FORMAT_NAMES). */
  format: string;
  agent: { name: string; preset?: string; model?: string };
}

/**
 * Where the agent's stdout goes (in the case area, outside the workspace), and how its usage and
 * trajectory are read from it, in one pass; undefined when neither is asked for.
 */
// Claude Code's and opencode's lines with usage are a few KiB; a tool result in a line may be long.
const LIVE_LINE_BYTES = 8 * 1024 * 1024;

function usageReader(
  options: Pick<RunCaseOptions, 'usage' | 'trajectory' | 'solution'>,
  prompt: string,
  area: CaseArea,
  maxOutputBytes: number | undefined,
): UsageReader | undefined {
  // The oracle's solution lines print no agent's stream.
  const trajectory = options.solution === undefined ? options.trajectory : undefined;
  if (options.usage === undefined && trajectory === undefined) return undefined;
  const maxBytes = maxOutputBytes ?? DEFAULT_USAGE_BYTES;
  const { usage } = options;
  return {
    file: join(area.root, 'agent-stdout'),
    ...(usage !== undefined && {
      // One JSONL line at a time is all a live reading holds; a longer line is passed on unread.
      watch: (sink: Writable, budget: Budget) => liveBudget(sink, usage, budget, Math.min(maxBytes, LIVE_LINE_BYTES)),
    }),
    read: async (file) => {
      const read = await readAgentOutput(file, { usage: options.usage, trajectory: trajectory?.format }, { maxBytes });
      if (trajectory === undefined || read.stream === undefined) return { usage: read.usage };
      const { format, agent } = trajectory;
      return {
        usage: read.usage,
        trajectory: assembleTrajectory({ format, stream: read.stream, prompt, usage: read.usage, agent }),
      };
    },
  };
}

/** The variable that tells a case's commands which trial of its cell they run in. */
export const TRIAL_ENV = 'GZ_BENCH_TRIAL';

/**
 * Runs one case in a fresh area of its own: the fixture repository (if any) is copied into the
 * workspace, setup commands run in order, then the agent command, then protected paths are checked
 * and restored, then the checks run in order, stopping at the first failure; then everything is
 * removed unless kept. A failing command or check is a failed result; only faults of the harness
 * itself throw.
 */
export async function runCase(testCase: Case, options: RunCaseOptions): Promise<CaseResult> {
  const started = performance.now();
  const command = options.solution === undefined ? renderTemplate(options.cmd) : solutionCommand(options.solution);
  const sandbox = options.sandbox ?? { kind: 'none' };
  const repo = testCase.repo === undefined ? undefined : suitePath(testCase.repo, options.suiteDir);
  const verify = settingPaths(testCase.verify).map((path) => suitePath(path, options.suiteDir));
  const solutionFiles = settingPaths(testCase.solutionFiles).map((path) => suitePath(path, options.suiteDir));
  // Before anything runs: exec would refuse every command of the case with a bare E2BIG.
  const tooLong = options.solution === undefined ? inlinePromptProblem(options.cmd, testCase.prompt) : undefined;
  if (tooLong !== undefined) return notRun(testCase, started, sandbox, 'agent', tooLong);
  const badAgent = options.agent === undefined ? undefined : agentSettingsProblem(options.agent);
  if (badAgent !== undefined) return notRun(testCase, started, sandbox, 'harness', badAgent);
  // A case in an image places its workdir in the image's own root, made with its area.
  const found =
    testCase.environment === undefined
      ? undefined
      : await caseImage(testCase, options.suiteDir, sandbox.kind, options.engine);
  if (typeof found === 'string') return notRun(testCase, started, sandbox, 'harness', found);
  // A task whose base image is not here runs on the host, as without an environment, and says why.
  const hostFallback = found !== undefined && 'host' in found ? found : undefined;
  const image = hostFallback === undefined ? (found as CaseImage | undefined) : undefined;
  const placed = image === undefined ? placeWorkdir(testCase, sandbox.kind) : undefined;
  if (typeof placed === 'string') return notRun(testCase, started, sandbox, 'harness', placed);
  const token = newCaseToken();
  const parent = options.tmpDir ?? tmpdir();
  let area: CaseArea;
  try {
    area = await createCaseArea({ token, parent });
  } catch (error) {
    // A temp dir that is gone, read-only or full fails this case with the reason; the run goes on.
    const fault = tempDirFault(error, parent);
    if (fault === undefined) throw error;
    return notRun(testCase, started, sandbox, 'harness', `could not create the case area: ${fault}`);
  }
  const leftovers = new LeftoverSweep(token);
  let result: CaseResult;
  try {
    result = await runInArea(testCase, options, {
      area,
      command,
      sandbox,
      repo,
      verify,
      solutionFiles,
      started,
      leftovers,
      workdir: placed,
      image,
      hostFallback,
    });
  } catch (error) {
    await finishCase(area, leftovers, options.keep === true);
    throw error;
  }
  const problem = await finishCase(area, leftovers, options.keep === true, options.deferRemoval === true);
  caseEnded();
  // Cleaning up is the harness's business: the case keeps its outcome and checks, and says what remains.
  return problem === undefined ? result : { ...result, warnings: [...(result.warnings ?? []), problem] };
}

interface AreaContext {
  area: CaseArea;
  command: string;
  sandbox: ResolvedSandbox;
  repo: string | undefined;
  /** The case's hidden verifiers, if any (see integrity/verifiers.ts): directories merged, files by name. */
  verify: readonly string[];
  /** The files of the case's solution, hidden like the verifiers and installed only for the oracle run. */
  solutionFiles: readonly string[];
  started: number;
  leftovers: LeftoverSweep;
  /** Where the sandbox shows the workspace, when the case asks for a fixed path. */
  workdir: WorkdirLayout | undefined;
  /** The image the case runs in, if it names an environment. */
  image: CaseImage | undefined;
  /** Why a case with an environment runs on the host instead, and what of its Dockerfile the host lacks. */
  hostFallback: HostFallback | undefined;
}

/** The sandbox's placement of a case's `workdir` (and of a task's fixed paths), or why it cannot have one here. */
function placeWorkdir(testCase: Case, sandbox: 'bwrap' | 'none'): WorkdirLayout | string | undefined {
  const task = testCase.layout === 'task';
  // A task's working directory is where its image puts it; Harbor's and Terminal-Bench's is /app.
  const workdir = testCase.workdir ?? (task ? '/app' : undefined);
  if (workdir === undefined) return undefined;
  if (sandbox === 'none') {
    const what = task ? `the task's paths (${workdir}, ${TASK_PATHS.join(', ')}) need` : `workdir "${workdir}" needs`;
    return `${what} the bwrap sandbox, which shows the workspace there; run with --sandbox bwrap (sandbox: "bwrap")`;
  }
  try {
    return workdirLayout(workdir, task ? TASK_PATHS : []);
  } catch (error) {
    if (error instanceof WorkdirError) return error.message;
    throw error;
  }
}

/** A family case runs with its tool server, which is closed (its FIFOs removed) however the case ends. */
async function runInArea(testCase: Case, options: RunCaseOptions, context: AreaContext): Promise<CaseResult> {
  if (testCase.family === undefined) return runPrepared(testCase, options, context, undefined);
  let family: FamilyCase;
  try {
    family = await startFamilyCase(testCase.family, options.tmpDir ?? tmpdir(), join(context.area.root, 'tool-slots'));
  } catch (error) {
    const reason = error instanceof Error && !('code' in error) ? error.message : errorReason(error);
    return notRun(
      testCase,
      context.started,
      context.sandbox,
      'harness',
      `could not start the task's tool server: ${reason}`,
    );
  }
  try {
    return await runPrepared(testCase, options, context, family);
  } finally {
    await family.close();
  }
}

async function runPrepared(
  testCase: Case,
  options: RunCaseOptions,
  context: AreaContext,
  family: FamilyCase | undefined,
): Promise<CaseResult> {
  const { area, command, sandbox, repo, verify, solutionFiles, started, leftovers, image } = context;
  const task = testCase.layout === 'task';
  let imageRoot: ImageRoot | undefined;
  let workdir = context.workdir;
  if (image !== undefined) {
    try {
      // The agent's CLI is the host's, shown read-only where the project does not hold it already.
      const program =
        options.solution === undefined
          ? await agentProgram(
              options.cmd,
              (options.env ?? process.env).PATH ?? '',
              process.cwd(),
              image.image.rootfs,
              imagePathOf(image.image.config.env),
            )
          : undefined;
      imageRoot = await createImageRoot(
        image.image.rootfs,
        area,
        [process.cwd(), options.suiteDir ?? process.cwd(), ...(family ? [family.toolDir] : [])],
        program,
      );
      workdir = { path: image.workdir ?? area.workspace, root: imageRoot.root, writableRoot: true };
      if (image.workdir !== undefined) await seedFromImage(image.image.rootfs, image.workdir, area.workspace);
    } catch (error) {
      if (!(error instanceof ImageRootError)) throw error;
      return notRun(testCase, started, sandbox, 'harness', error.message);
    }
  }
  // Verifiers inside the fixture stay out of the workspace, and out of what protected paths compare with.
  const insideFixture =
    repo === undefined ? [] : [...verify, ...solutionFiles].flatMap((path) => hiddenFixturePath(repo, path) ?? []);
  const hidden = insideFixture.length > 0 ? insideFixture : undefined;
  await writePromptFile(area, testCase.prompt);
  const source = options.env ?? process.env;
  const envs = commandEnvs({
    testCase,
    source,
    home: area.home,
    tmp: area.tmp,
    ...(options.allowEnv && { allowEnv: options.allowEnv }),
    ...(options.agent && { agent: options.agent }),
    own: {
      ...promptEnv(testCase.prompt, area.promptFile),
      // Where the commands see the workspace: the fixed path, when the case has one.
      [DIR_ENV]: workdir?.path ?? area.workspace,
      [CASE_TOKEN_ENV]: area.token,
      ...(options.trial !== undefined && { [TRIAL_ENV]: String(options.trial) }),
      ...(family && { [TOOL_DIR_ENV]: family.toolDir, [TOOL_SLOTS_ENV]: family.slotsDir }),
    },
  });
  if (image !== undefined && imageRoot !== undefined) {
    // The image's Env under what the case sets itself; the host's PATH gives way to the image's.
    const own = new Set(['HOME', 'TMPDIR', 'TMP', 'TEMP', ...Object.keys(testCase.env ?? {})]);
    const agentOwn = new Set([...own, ...Object.keys(options.agent?.env ?? {})]);
    envs.steps = imageEnv(image.image.config.env, envs.steps, own, imageRoot);
    envs.agent = imageEnv(image.image.config.env, envs.agent, agentOwn, imageRoot);
  }
  const env = envs.steps;
  const warnings: string[] = [
    ...(image?.warnings ?? []),
    ...(context.hostFallback === undefined ? [] : [`run on the host: ${context.hostFallback.host}`]),
    ...(await seedHome(testCase, options.agent, area, source)),
  ];
  // What of the task's environment the host does not provide: a failure may come from there.
  for (const missing of [...(context.hostFallback?.notReproduced ?? []), ...(testCase.notReproduced ?? [])]) {
    warnings.push(`not reproduced here: ${missing}`);
  }
  const changesSettings = resolveChanges(testCase.changes);
  // The fences around the copy tell the fixture's files from those setup writes (see changes/snapshot.ts).
  const fence = join(area.root, 'changes-fence');
  const fenceBefore = changesSettings !== undefined && repo !== undefined ? changesFence(fence) : undefined;
  let prepared: PreparedWorkspace;
  try {
    prepared = await prepareWorkspace(area, {
      repo,
      git: testCase.git === true,
      allowSecrets: options.allowSecrets === true,
      ...(hidden !== undefined && { hidden }),
      env,
    });
  } catch (error) {
    // A fixture that vanished or git that is missing fails this case, with the reason, not the run.
    if (!(error instanceof FixtureError || error instanceof GitBaselineError)) throw error;
    return notRun(testCase, started, sandbox, 'harness', `could not prepare the workspace: ${error.message}`);
  }
  warnings.push(...prepared.warnings);
  const starting = await copyStartingFiles(testCase.files ?? [], options.suiteDir ?? process.cwd(), area.workspace);
  if (starting !== undefined) return notRun(testCase, started, sandbox, 'harness', starting);
  let agentEnv = envs.agent;
  try {
    if (task) await createTaskLogs(area);
    if (options.solution !== undefined && solutionFiles.length > 0) {
      const dir = await installSolutionFiles(solutionFiles, area);
      agentEnv = { ...agentEnv, [SOLUTION_DIR_ENV]: task ? '/solution' : dir };
    }
  } catch (error) {
    return notRun(testCase, started, sandbox, 'harness', `could not prepare the task's paths: ${errorReason(error)}`);
  }
  const changes: SnapshotPlan | undefined = changesSettings && {
    settings: changesSettings,
    keptFile: join(area.root, 'changes-before'),
    ...(repo !== undefined &&
      fenceBefore !== undefined && { fixture: { dir: repo, fenceBefore, fenceAfter: changesFence(fence) } }),
  };
  await family?.writeFiles(area.workspace);
  if (testCase.network === false && sandbox.kind === 'none') {
    warnings.push('network: false is not enforced: the commands ran without the bwrap sandbox');
  }
  const timeouts = caseStepTimeoutsMs(testCase, options.timeoutSec);
  const logs = options.logs === undefined ? undefined : await prepareLogs(options.logs, warnings);
  const secret = await hiddenEntries([...verify, ...solutionFiles, ...(options.secretPaths ?? [])]);
  const launch = await commandLaunch({
    sandbox: sandbox.kind,
    area: area.root,
    workspace: area.workspace,
    readOnly: [area.promptFile],
    network: testCase.network !== false,
    // Under bwrap the verifiers' and solution's sources are empty for every command; checks run the
    // copy in the area, the oracle's solution its own.
    ...(secret.dirs.length > 0 && { hidden: secret.dirs }),
    ...(secret.files.length > 0 && { hiddenFiles: secret.files }),
    ...(workdir && { workdir }),
    ...(task && { binds: taskBinds(area) }),
    ...(imageRoot && { launcher: imageRoot.launcher, areaMasks: imageRoot.masks }),
    ...(options.env && { env: options.env }),
  });
  leftovers.containment = launch.containment;
  const run: CommandRunner = createCommandRunner({
    area,
    env,
    timeoutMs: timeouts.agent,
    limits: caseByteLimits(testCase),
    launch,
    leftovers,
    ...(options.signal && { signal: options.signal }),
    ...(options.killGraceMs !== undefined && { killGraceMs: options.killGraceMs }),
  });
  let installed: InstalledSkill[] = [];
  let skills: SkillTrial[] | undefined;
  const outcome = await runSteps(testCase, {
    command,
    area,
    timeouts,
    repo,
    allowSecrets: options.allowSecrets === true,
    ...(hidden !== undefined && { hidden }),
    run,
    agentEnv,
    logs,
    settleLeftovers: () => leftovers.settle(),
    // Checks alone learn where the verifiers are: the directory does not exist before them.
    ...(verify.length > 0 && { verify: { sources: verify } }),
    ...(task && { task: true }),
    checkEnv: verify.length === 0 ? env : { ...env, [VERIFY_DIR_ENV]: task ? '/tests' : verifyDirOf(area) },
    ...(options.signal && { signal: options.signal }),
    usage: usageReader(options, testCase.prompt, area, caseByteLimits(testCase).output),
    ...(options.budget && { budget: options.budget }),
    ...(changes && { changes }),
    ...(options.skills && {
      afterSetup: async () => {
        try {
          installed = await installSkills(options.skills?.skills ?? [], options.skills?.placement as SkillPlacement, {
            workspace: area.workspace,
            home: area.home,
          });
          return undefined;
        } catch (error) {
          return `could not install the arm's skills: ${errorReason(error)}`;
        }
      },
      afterAgent: async (trajectory) => {
        const seen = workdir?.path === undefined ? [] : [{ host: area.workspace, agent: workdir.path }];
        skills = await skillTrials(installed, trajectory, seen);
        return { skills };
      },
    }),
  });
  warnings.push(...(outcome.warnings ?? []));
  for (const skill of skills ?? []) {
    if (skill.edits) warnings.push(`the agent changed the skill ${skill.name}: ${skill.edits.join(', ')}`);
  }
  const scored = family && outcome.agent ? await scoreFamily(family, area, outcome) : undefined;
  // The case's own checks and steps speak first; the family's check only where they all passed.
  const failure = outcome.failure ?? scored?.failure;
  return {
    id: testCase.id,
    passed: failure === undefined,
    outcome: outcomeOf(failure, outcome.agent),
    durationMs: Math.round(performance.now() - started),
    checkResults: outcome.checkResults,
    ...(failure && { error: failure.message, failedStep: failure.step }),
    ...(outcome.tampered && { tampered: outcome.tampered }),
    ...(outcome.setupLogs && { setupLogs: outcome.setupLogs }),
    ...(outcome.agent && { agent: outcome.agent }),
    ...(outcome.trajectory && { trajectory: outcome.trajectory }),
    ...(skills && { skills }),
    sandbox: sandbox.kind,
    ...(prepared.skipped.length > 0 && { fixtureSkipped: prepared.skipped }),
    ...(warnings.length > 0 && { warnings }),
    ...(options.keep && { workspace: area.workspace }),
    ...(scored && { family: scored.report }),
    ...(outcome.changes && { changes: outcome.changes }),
  };
}

/** A family's built-in check, after the case's own: the answer against the hidden data and the call log. */
async function scoreFamily(
  family: FamilyCase,
  area: CaseArea,
  outcome: StepsOutcome,
): Promise<{ report: FamilyReport; failure?: TrialFailure }> {
  // A step that failed (a workspace the agent swapped for a link among them) leaves the answer unread.
  const { report, failure } = await family.score(outcome.failure === undefined ? area.workspace : undefined);
  if (failure === undefined || outcome.agent === undefined) return { report };
  return { report, failure: agentErrorOverCheck({ step: 'check', message: failure }, outcome.agent) };
}

function errorReason(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? String(error);
}

/**
 * Seeds the case HOME (the agent's git config, login copies, home files) unless the case runs with the
 * real HOME, which nothing of gz-bench may write to. Returns what the result should warn about.
 */
async function seedHome(
  testCase: Case,
  agent: AgentSettings | undefined,
  area: CaseArea,
  source: NodeJS.ProcessEnv,
): Promise<string[]> {
  if (testCase.realHome === true) {
    const seeded = (agent?.home?.length ?? 0) + (agent?.login?.length ?? 0) > 0;
    return seeded ? ["realHome: the agent's home files and logins were not written: its HOME is your own"] : [];
  }
  try {
    return await seedCaseHome({
      home: area.home,
      realHome: source.HOME,
      area: area.root,
      ...(agent?.login && { login: agent.login }),
      ...(agent?.loginOptional && { loginOptional: true }),
      ...(agent?.home && { files: agent.home }),
    });
  } catch (error) {
    // A full or failing temp dir: the commands will say more; the case still runs.
    return [`the case HOME could not be prepared (${(error as NodeJS.ErrnoException).code ?? String(error)})`];
  }
}

/** The case's log directory, made and cleared of an earlier run's logs; a warning instead when it cannot be. */
async function prepareLogs(location: CaseLogLocation, warnings: string[]): Promise<CaseLogs | undefined> {
  try {
    return await CaseLogs.prepare(location);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    warnings.push(`the logs of this case could not be written to ${location.display} (${reason})`);
    return undefined;
  }
}

/**
 * Kills what the case left running and removes (or keeps) its area. Returns a warning when the area
 * could not be removed; it then stays on disk, named after this process, and is removed when this
 * process ends or, failing that, by the next run's cleanStaleAreas.
 */
async function finishCase(
  area: CaseArea,
  leftovers: LeftoverSweep,
  keep: boolean,
  defer = false,
): Promise<string | undefined> {
  // Without a pid namespace, whatever escaped the process groups (setsid, double forks) carries the token.
  await leftovers.settle();
  if (defer && !keep) {
    deferAreaRemoval(area);
    return undefined;
  }
  try {
    if (keep) await releaseCaseArea(area);
    else await removeCaseArea(area);
    return undefined;
  } catch (error) {
    return areaCleanupProblem(area, keep ? 'kept' : 'removed', error);
  }
}

/** A failed result for a case none of whose commands ran. */
function notRun(
  testCase: Case,
  started: number,
  sandbox: ResolvedSandbox,
  step: FailedStep,
  message: string,
): CaseResult {
  return {
    id: testCase.id,
    passed: false,
    outcome: outcomeOf({ step, message }, undefined),
    durationMs: Math.round(performance.now() - started),
    checkResults: testCase.checks.map((check) => ({ ...check, passed: false, skipped: true })),
    error: message,
    failedStep: step,
    sandbox: sandbox.kind,
  };
}
