import { z } from 'zod';
import { DEFAULT_MAX_DIFF_KB, DEFAULT_MAX_FILE_KB } from '../changes/settings.js';
import { ALLOW_ENV_ENTRY_PATTERN, allowEnvProblem } from '../env/allow-env.js';
import { envConstantNameProblem, envConstantValueProblem } from '../env/env-constants.js';
import { ENV_NAME_PATTERN } from '../env/env-names.js';
import { FamilySchema } from '../families/family-schema.js';
import { type FamilyInstance, familyCaseId } from '../families/types.js';
import { showRegex } from '../regex/show-regex.js';
import { compiles } from './compiles.js';
import {
  type CASE_SETTING_KEYS,
  DEFAULT_TIMEOUT_SEC,
  MAX_TIMEOUT_SEC,
  type TASK_SETTING_KEYS,
  VERIFY_PLACEHOLDER,
} from './defaults.js';
import { TAG_PATTERN, tagProblem } from './labels.js';
import { workdirProblem } from './workdir.js';

// fast-validate.ts holds a second, faster statement of these rules for suites that keep them; a rule
// changed here must change there too (fast-validate.test.ts holds the two to each other, and stops
// the fast path on a key it does not know).

export { ENV_NAME_PATTERN } from '../env/env-names.js';
export { DEFAULT_TIMEOUT_SEC, MAX_TIMEOUT_SEC } from './defaults.js';
export { withSuiteSettings } from './suite-settings.js';

const nonEmpty = z.string().min(1, 'must be a non-empty string');

/**
 * A non-empty string that will reach a shell, a file system call or an argv: Node rejects strings with a
 * NUL character there, so reject them up front with a message that names the field.
 */
const noNul = nonEmpty.refine((text) => !text.includes('\0'), 'may not contain a NUL character');

/**
 * A number in the given words: `requirement` is what a wrong type or a non-finite value (`1e400`,
 * which JSON.parse reads as Infinity) is told, with the value as written appended by the validator.
 */
const numberField = (requirement: string) => z.number({ error: requirement });

/** An exit code: an integer from 0 to 255, and only those words for every way of missing it. */
const EXIT_CODE = 'must be an exit code from 0 to 255';

/** A value as a message shows it: JSON, except for numbers JSON cannot write. */
function showValue(value: unknown): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
}

/** A workspace-relative path named by a check. */
const checkPath = noNul.describe('Path relative to the case workspace; it may not lead outside it.');

/** Passes when `path` exists inside the workspace. */
export const FileExistsCheckSchema = z
  .object({ kind: z.literal('fileExists'), path: checkPath })
  .strict()
  .describe('Passes when `path` exists inside the workspace.');

/** Passes when `path` is a file inside the workspace that contains `text`. */
export const FileContainsCheckSchema = z
  .object({
    kind: z.literal('fileContains'),
    path: checkPath,
    text: nonEmpty.describe('Text the file must contain.'),
    flags: z
      .literal('i', {
        // JSON.stringify would print Infinity (from `1e400`) as null.
        error: (issue) => `unsupported flags ${showValue(issue.input)}; fileContains accepts only "i"`,
      })
      .optional()
      .describe('"i" makes the match case-insensitive.'),
  })
  .strict()
  .describe('Passes when `path` is a file inside the workspace that contains `text`.');

/** Passes when `path` does not exist inside the workspace. */
export const FileNotExistsCheckSchema = z
  .object({ kind: z.literal('fileNotExists'), path: checkPath })
  .strict()
  .describe('Passes when `path` does not exist inside the workspace.');

/** Passes when the shell command `run`, run in the workspace, exits with `expectExit`. */
export const CommandCheckSchema = z
  .object({
    kind: z.literal('command'),
    run: noNul.describe('Shell command run in the workspace.'),
    // The error option also covers z.int's own safe-integer range check (1e20), whose default reads
    // "too big: expected int to be <=9007199254740991".
    expectExit: z
      .int({ error: EXIT_CODE })
      .min(0, EXIT_CODE)
      .max(255, EXIT_CODE)
      .optional()
      .describe('Expected exit code. @default 0'),
  })
  .strict()
  .describe('Passes when the shell command `run`, run in the workspace, exits with `expectExit` (default 0).');

/** Passes when the regular expression matches the agent's combined stdout and stderr. */
export const OutputMatchesCheckSchema = z
  .object({
    kind: z.literal('outputMatches'),
    pattern: nonEmpty.describe('JavaScript regular expression source.'),
    flags: z.string().optional().describe('JavaScript regular expression flags, e.g. "i" or "ms".'),
  })
  .strict()
  .superRefine((check, ctx) => {
    if (check.flags !== undefined && !compiles('', check.flags)) {
      const message = `invalid regular expression flags ${JSON.stringify(check.flags)}`;
      ctx.addIssue({ code: 'custom', path: ['flags'], message });
    } else if (!compiles(check.pattern, check.flags)) {
      const message = `invalid regular expression ${showRegex(check.pattern)}`;
      ctx.addIssue({ code: 'custom', path: ['pattern'], message });
    }
  })
  .describe("Passes when `pattern` matches the agent command's combined stdout and stderr.");

/** Passes when the agent command exited with `expectExit`. */
export const AgentExitCheckSchema = z
  .object({
    kind: z.literal('agentExit'),
    expectExit: z
      .int({ error: EXIT_CODE })
      .min(0, EXIT_CODE)
      .max(255, EXIT_CODE)
      .optional()
      .describe("The agent's expected exit code. @default 0"),
  })
  .strict()
  .describe('Passes when the agent command exited with `expectExit` (default 0).');

/** Passes when the model loaded the arm's skill `skill` (or, with `expect: false`, did not). */
export const SkillUsedCheckSchema = z
  .object({
    kind: z.literal('skillUsed'),
    skill: nonEmpty.describe("The skill's name, as its SKILL.md front matter gives it."),
    expect: z.boolean().optional().describe('false for a case where the skill must not trigger. @default true'),
  })
  .strict()
  .describe(
    "Passes when the agent's trajectory shows the model loaded the arm's skill (or, with expect false, that it did not); in an arm without the skill it passes, so that arm is judged by the task alone.",
  );

/** One deterministic assertion about a case's workspace or its agent's output. */
export const CheckSchema = z.discriminatedUnion('kind', [
  FileExistsCheckSchema,
  FileContainsCheckSchema,
  FileNotExistsCheckSchema,
  CommandCheckSchema,
  OutputMatchesCheckSchema,
  AgentExitCheckSchema,
  SkillUsedCheckSchema,
]);

/** A check as written in a suite. */
export type Check = z.infer<typeof CheckSchema>;
/** The name of a check kind. */
export type CheckKind = Check['kind'];
/** A `fileExists` check. */
export type FileExistsCheck = z.infer<typeof FileExistsCheckSchema>;
/** A `fileContains` check. */
export type FileContainsCheck = z.infer<typeof FileContainsCheckSchema>;
/** A `fileNotExists` check. */
export type FileNotExistsCheck = z.infer<typeof FileNotExistsCheckSchema>;
/** A `command` check. */
export type CommandCheck = z.infer<typeof CommandCheckSchema>;
/** An `outputMatches` check. */
export type OutputMatchesCheck = z.infer<typeof OutputMatchesCheckSchema>;
/** An `agentExit` check. */
export type AgentExitCheck = z.infer<typeof AgentExitCheckSchema>;
/** A `skillUsed` check. */
export type SkillUsedCheck = z.infer<typeof SkillUsedCheckSchema>;

/** A relative path inside a fixture repository. */
const fixturePath = noNul.describe('Path relative to the fixture repository.');

/** An `allowEnv` entry: a name, a comma-separated list of names, or a `PREFIX_*` pattern. */
const allowEnvEntry = z
  .string()
  .superRefine((entry, ctx) => {
    const problem = allowEnvProblem(entry);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: 'Variables of the harness to pass on: a name, a comma-separated list of names, or a PREFIX_* pattern.',
    pattern: ALLOW_ENV_ENTRY_PATTERN,
  });

/** The name of an `env` constant. */
const envConstantName = z
  .string()
  .regex(ENV_NAME_PATTERN, 'must be an environment variable name')
  .superRefine((name, ctx) => {
    const problem = envConstantNameProblem(name);
    if (problem !== undefined && ENV_NAME_PATTERN.test(name)) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The value of an `env` constant. */
const envConstantValue = z.string().superRefine((value, ctx) => {
  const problem = envConstantValueProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/** What `changes` may say beyond `false`: which paths to leave out, and the diff's bounds. */
export const ChangesOptionsSchema = z
  .object({
    exclude: z
      .array(noNul)
      .optional()
      .describe(
        'Paths left out of the changes: a name at any depth ("node_modules", "*.log") or a path from the workspace root ("dist/**"). .git is always left out.',
      ),
    maxFileKB: numberField('must be a finite number of KiB')
      .positive('must be a positive number of KiB')
      .optional()
      .describe(`Files larger than this are named in changes.diff, not inlined. @default ${DEFAULT_MAX_FILE_KB}`),
    maxDiffKB: numberField('must be a finite number of KiB')
      .positive('must be a positive number of KiB')
      .optional()
      .describe(`changes.diff is cut at this size, and says so at its end. @default ${DEFAULT_MAX_DIFF_KB}`),
  })
  .strict();

/** How many of an environment's image sources it names: one is right. */
export function imageSources(environment: { archive?: unknown; dockerfile?: unknown; image?: unknown }): number {
  return [environment.archive, environment.dockerfile, environment.image].filter((source) => source !== undefined)
    .length;
}

/** A case's environment: an image to run in, instead of the host's userland. */
export const EnvironmentSchema = z
  .object({
    archive: noNul
      .describe('A docker-archive (docker save) or OCI image layout, file or directory, relative to the suite file.')
      .optional(),
    dockerfile: noNul
      .describe(
        "A Dockerfile to build the image from, relative to the suite file; its FROM names an image of baseImages (or of the engine's store).",
      )
      .optional(),
    image: noNul
      .describe('An image of a local engine\'s store (docker or podman), by name or id: "python:3.12-slim".')
      .optional(),
    context: noNul
      .describe("The Dockerfile's build context, relative to the suite file (default: the Dockerfile's directory).")
      .optional(),
    ignore: z
      .array(noNul)
      .describe("Patterns of the context left out of it, as its .dockerignore's lines (from the context's root).")
      .optional(),
    fallback: z
      .literal('host')
      .describe('"host": when the Dockerfile\'s base image is not here, run on the host, as imported tasks do.')
      .optional(),
  })
  .strict()
  .refine((environment) => imageSources(environment) === 1, {
    message: 'needs exactly one of "archive", "dockerfile" and "image"',
  })
  .refine((environment) => environment.dockerfile !== undefined || environment.context === undefined, {
    message: '"context" goes with "dockerfile"',
    path: ['context'],
  });

/** Settings a suite may give all its cases and a case may override; the case's own value wins. */
const caseSettings = {
  repo: noNul
    .optional()
    .describe('Fixture directory, relative to the suite file, copied into each workspace before setup.'),
  git: z
    .boolean()
    .optional()
    .describe('Make the workspace a git repository with one commit of its starting files, so checks can run git diff.'),
  protect: z
    .array(fixturePath)
    .optional()
    .describe(
      'Fixture paths (files or directories) restored before the checks; any change the agent made fails the case as tampered.',
    ),
  allowEnv: z
    .array(allowEnvEntry)
    .optional()
    .describe(
      'Environment variables of the harness that setup, the agent and checks receive (API keys, tokens): names, comma-separated lists or PREFIX_* patterns.',
    ),
  env: z
    .record(envConstantName, envConstantValue)
    .optional()
    .describe(
      'Constants set for setup, the agent and checks, e.g. { "IS_SANDBOX": "1" }; a case\'s own win over the suite\'s, name by name.',
    ),
  realHome: z
    .boolean()
    .optional()
    .describe(
      "Give the commands the harness's real HOME instead of a fresh one per case (agents that keep logins there).",
    ),
  network: z
    .boolean()
    .optional()
    .describe('false cuts the network of setup, the agent and command checks (needs the bwrap sandbox). @default true'),
  maxDiskMB: numberField('must be a finite number of MiB')
    .positive('must be a positive number of MiB')
    .optional()
    .describe("Fails the case when the case's files grow beyond this many MiB while a command runs."),
  maxOutputMB: numberField('must be a finite number of MiB')
    .positive('must be a positive number of MiB')
    .optional()
    .describe('Fails the case when a command writes more than this many MiB of output.'),
  changes: z
    .union([z.literal(false), ChangesOptionsSchema])
    .optional()
    .describe(
      "What the agent changed, compared with the workspace after setup: the row's changes and changes.diff beside the logs; false turns it off.",
    ),
  environment: EnvironmentSchema.optional().describe(
    'The image whose userland setup, the agent and command checks run in (needs the bwrap sandbox): { "archive": "image.tar" } (a docker-archive or OCI layout) or { "dockerfile": "env/Dockerfile" }, relative to the suite file. Its Env and WorkingDir (the workdir, unless one is set) apply; the workspace starts with what the image holds there.',
  ),
  baseImages: z
    .record(noNul, noNul)
    .optional()
    .describe(
      'Images for the FROM lines of Dockerfiles, by name: { "python:3.12": "images/python.tar" } (archives relative to the suite file); no registry is reached.',
    ),
  // Checker integrity: hidden verifiers.
  verify: z
    .union([noNul, z.array(noNul).min(1, 'must name at least one path')])
    .optional()
    .describe(
      'Directory of verifier files, relative to the suite file, that the agent never sees: copied outside the workspace after the agent, for command checks to run through {{verify}} or GZ_BENCH_VERIFY_DIR. A list merges its directories and files into one.',
    ),
};

/** A starting file or directory of the workspace, copied in before setup. */
export const StartingFileSchema = z
  .object({
    from: noNul.describe('A file or directory, relative to the suite file.'),
    to: noNul.describe('Where it goes, relative to the workspace; "." for its top.'),
  })
  .strict();

/** What public benchmark tasks (Harbor, Terminal-Bench) assume of their case, loaded or imported from them. */
const taskSettings = {
  layout: z
    .literal('task')
    .optional()
    .describe(
      'The fixed paths of Harbor and Terminal-Bench tasks (needs the bwrap sandbox): the verifiers at /tests for checks, a writable /logs with agent/ and verifier/, the solution files at /solution; a reward the checks write to /logs/verifier decides them.',
    ),
  solutionFiles: z
    .union([noNul, z.array(noNul).min(1, 'must name at least one path')])
    .optional()
    .describe(
      'Files the solution uses, relative to the suite file: hidden from agents like verify, and copied to the case area (GZ_BENCH_SOLUTION_DIR, /solution with layout "task") only for the solution.',
    ),
  files: z
    .array(StartingFileSchema)
    .optional()
    .describe('Starting files copied into the workspace before setup (after repo), in order.'),
  notReproduced: z
    .array(noNul)
    .optional()
    .describe(
      "Parts of the task's environment the host does not provide (an image, installed packages, services): listed by validate and check-suite, and in each row's warnings.",
    ),
};

/** A tag: a word of Vitest's `--tags-filter` language. */
const tag = z
  .string()
  .superRefine((name, ctx) => {
    const problem = tagProblem(name);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: 'A Vitest test tag, e.g. "python" or "hard".', pattern: TAG_PATTERN });

/** Tags and metadata, on a case and on its suite: what results are sliced and grouped by. */
const labels = {
  tags: z
    .array(tag)
    .optional()
    .describe(
      "Vitest test tags of the case (a suite's apply to all its cases), for `--tags-filter`, e.g. 'python && !hard'.",
    ),
  meta: z
    .record(z.string(), z.json())
    .optional()
    .describe(
      "Free-form metadata (difficulty, category, source…) carried into each report row; a case's keys win over the suite's.",
    ),
};

/** A bound of some seconds, at most a day. */
const timeoutSec = () =>
  numberField('must be a finite number of seconds')
    .positive('must be a positive number of seconds')
    .max(MAX_TIMEOUT_SEC, `must be at most ${MAX_TIMEOUT_SEC} seconds`);

/** Bounds of setup and checks apart from the agent's; a suite's apply to its cases, a case's own win. */
const stepTimeouts = {
  setupTimeoutSec: timeoutSec()
    .optional()
    .describe("Bounds each setup command, instead of timeoutSec (which stays the agent's). @default timeoutSec"),
  checkTimeoutSec: timeoutSec()
    .optional()
    .describe(
      "Bounds each command check and each outputMatches match, instead of timeoutSec (which stays the agent's). @default timeoutSec",
    ),
};

/** Where the workspace appears in the sandbox, for tasks that assume a fixed path. */
const workdirSetting = {
  workdir: noNul
    .superRefine((path, ctx) => {
      const problem = workdirProblem(path);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .describe(
      'An absolute path, e.g. "/app", where setup, the agent and command checks see the workspace and start (needs the bwrap sandbox).',
    ),
};

/** One task for the agent: a prompt, optional setup, and the checks that score it. */
export const CaseSchema = z
  .object({
    ...caseSettings,
    id: nonEmpty.describe('Unique within the suite; the Vitest test name.'),
    prompt: noNul.describe('Sent to the agent through the {{prompt}} placeholder, exactly as written.'),
    setup: z
      .array(noNul)
      .optional()
      .describe('Shell commands run in the workspace before the agent; the first nonzero exit fails the case.'),
    checks: z.array(CheckSchema).describe('Evaluated in order after the agent command; the first failure stops them.'),
    timeoutSec: numberField('must be a finite number of seconds')
      .positive('must be a positive number of seconds')
      .max(MAX_TIMEOUT_SEC, `must be at most ${MAX_TIMEOUT_SEC} seconds`)
      .optional()
      .describe(
        `Bounds the agent command, and setup and checks where setupTimeoutSec and checkTimeoutSec do not. @default ${DEFAULT_TIMEOUT_SEC}`,
      ),
    // Checker integrity: the oracle.
    solution: z
      .array(noNul)
      .optional()
      .describe(
        'Shell commands that solve the case, run in order in one shell where the agent would run; gz-bench check-suite proves the checks pass with them and fail with a no-op agent.',
      ),
    ...stepTimeouts,
    ...workdirSetting,
    ...taskSettings,
    ...labels,
  })
  .strict();

/**
 * A case as written in a suite, or one size of a family (`family` set), which loading a suite
 * generates: a suite file cannot set `family` on a case of its own.
 */
export type Case = z.infer<typeof CaseSchema> & { family?: FamilyInstance };

/** An arm's name: a column of the scoreboard beside each agent's name, and a describe block in Vitest. */
export const ARM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The skills an arm installs: skill folders, or those with the scope they are installed in. */
export const ArmSchema = z.union(
  [
    z.array(noNul),
    z
      .object({
        skills: z.array(noNul).describe('Skill folders (each with a SKILL.md), relative to the suite file.'),
        scope: z
          .enum(['project', 'user'])
          .optional()
          .describe('Where the skills go: the workspace (project) or the trial\'s own HOME (user). @default "project"'),
      })
      .strict(),
  ],
  {
    error: 'an arm is a list of skill folders, or { "skills": [...], "scope": "project" or "user" }',
  },
);

/** Arms by name. */
export const ArmsSchema = z.record(z.string(), ArmSchema).superRefine((arms, ctx) => {
  for (const name of Object.keys(arms)) {
    if (!ARM_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: ARM_NAME_RULE });
  }
});

/** What `ARM_NAME` asks of an arm's name, for messages. */
export const ARM_NAME_RULE =
  'an arm name is letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64';

/** An arm as written: its skill folders, or those with their scope. */
export type Arm = z.infer<typeof ArmSchema>;

/** A gz-bench suite file. */
export const SuiteSchema = z
  .object({
    $schema: z.string().optional().describe('JSON Schema reference for editors; ignored by gz-bench.'),
    name: nonEmpty.describe('Identifies the suite; the Vitest describe name.'),
    description: z.string().optional().describe('Human-readable description of the suite.'),
    version: z.string().optional().describe('Version of the suite, e.g. a semver string, for tracking results.'),
    ...caseSettings,
    ...stepTimeouts,
    ...workdirSetting,
    ...labels,
    cases: z.array(CaseSchema),
    families: z
      .array(FamilySchema)
      .optional()
      .describe('Seeded, generated task families: each size becomes one case "<id> size <n>" after the cases.'),
    tasks: z
      .array(noNul)
      .optional()
      .describe(
        "Harbor or Terminal-Bench task directories, or directories of them, relative to the suite file: each task becomes a case after the cases, the suite's settings applying.",
      ),
    arms: z
      .record(
        z
          .string()
          .regex(
            ARM_NAME,
            'an arm name is letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64',
          ),
        ArmSchema,
      )
      .optional()
      .describe(
        'Skill arms, e.g. {"none": [], "v1": ["./skills/pdf-v1"]}: every agent runs every case once per arm, with that arm\'s skills installed where its CLI looks for them.',
      ),
    baselineArm: nonEmpty
      .optional()
      .describe('The arm every other arm is compared with. @default "none", else the first arm'),
  })
  .strict()
  .superRefine((suite, ctx) => {
    armProblems(suite, ctx);
    const seen = new Set<string>();
    for (const { path, message } of familyIdProblems(suite.families ?? [], new Set(suite.cases.map((c) => c.id)))) {
      ctx.addIssue({ code: 'custom', path, message });
    }
    suite.cases.forEach((c, index) => {
      if (seen.has(c.id)) {
        ctx.addIssue({ code: 'custom', path: ['cases', index, 'id'], message: `duplicate case id "${c.id}"` });
      }
      seen.add(c.id);
      const protect = c.protect ?? suite.protect;
      if (protect && protect.length > 0 && (c.repo ?? suite.repo) === undefined) {
        const path = c.protect ? ['cases', index, 'protect'] : ['protect'];
        ctx.addIssue({ code: 'custom', path, message: 'protect needs a repo to restore the protected paths from' });
      }
      // Checker integrity: {{verify}} names the verifier directory, which the case must have.
      if ((c.verify ?? suite.verify) === undefined) {
        c.checks.forEach((check, checkIndex) => {
          if (check.kind !== 'command' || !check.run.includes(VERIFY_PLACEHOLDER)) return;
          const path = ['cases', index, 'checks', checkIndex, 'run'];
          ctx.addIssue({ code: 'custom', path, message: '{{verify}} needs a verify directory in the case or suite' });
        });
      }
    });
  })
  .describe('A gz-bench suite: declarative cases for benchmarking AI coding agents.');

function armProblems(suite: { arms?: Record<string, unknown>; baselineArm?: string }, ctx: z.RefinementCtx): void {
  if (suite.arms !== undefined && Object.keys(suite.arms).length === 0) {
    ctx.addIssue({ code: 'custom', path: ['arms'], message: 'names no arm; leave it out, or name at least one' });
  }
  if (suite.baselineArm === undefined) return;
  if (suite.arms === undefined) {
    ctx.addIssue({ code: 'custom', path: ['baselineArm'], message: 'needs arms to pick from' });
  } else if (!Object.hasOwn(suite.arms, suite.baselineArm)) {
    const names = Object.keys(suite.arms).join(', ');
    ctx.addIssue({ code: 'custom', path: ['baselineArm'], message: `names no arm of the suite (${names})` });
  }
}

/** Families whose id repeats, or one of whose sizes names the same case as a case of the suite. */
function familyIdProblems(
  families: ReadonlyArray<{ id: string; sizes: number[] }>,
  caseIds: ReadonlySet<string>,
): Array<{ path: (string | number)[]; message: string }> {
  const problems: Array<{ path: (string | number)[]; message: string }> = [];
  const familyIds = new Set<string>();
  families.forEach((family, index) => {
    if (familyIds.has(family.id)) {
      problems.push({ path: ['families', index, 'id'], message: `duplicate family id "${family.id}"` });
    }
    familyIds.add(family.id);
    const clash = family.sizes.map((size) => familyCaseId(family.id, size)).find((id) => caseIds.has(id));
    if (clash !== undefined) {
      problems.push({
        path: ['families', index, 'id'],
        message: `family "${family.id}" generates case "${clash}", which the suite already has`,
      });
    }
  });
  return problems;
}

/** A validated suite. */
export type Suite = z.infer<typeof SuiteSchema>;

/** The bounds of setup and checks that a suite gives its cases and a case may override. */
export type TaskSettings = Pick<Case, keyof typeof stepTimeouts | keyof typeof workdirSetting>;

type TaskSettingKey = (typeof TASK_SETTING_KEYS)[number];
const taskSettingKeysMatch: [keyof TaskSettings] extends [TaskSettingKey]
  ? [TaskSettingKey] extends [keyof TaskSettings]
    ? true
    : never
  : never = true;
void taskSettingKeysMatch;

/** The settings that a suite gives its cases and a case may override. */
export type CaseSettings = Pick<Case, keyof typeof caseSettings>;

// The plain list of settings (defaults.ts, which running a case uses) names exactly those of the schema.
type SettingKey = (typeof CASE_SETTING_KEYS)[number];
const settingKeysMatch: [keyof typeof caseSettings] extends [SettingKey]
  ? [SettingKey] extends [keyof typeof caseSettings]
    ? true
    : never
  : never = true;
void settingKeysMatch;
