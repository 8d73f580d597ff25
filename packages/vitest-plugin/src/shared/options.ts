import type { AgentDefinition, Arm, CellRule, EngineMode, ReportResult, SandboxMode } from '@gz-bench/core';

/**
 * An agent of the run: a command template (as `cmd`), or a definition — a preset's
 * (`preset('claude-code', { model: 'opus' })`) or your own — whose name is its key in `agents`.
 */
export type AgentOption = string | (Omit<AgentDefinition, 'name'> & { name?: string });

/**
 * When the test of an (agent, case) cell passes, from its trials: `majority` (more than half
 * passed), `all`, `any`, or the share of trials that must pass, from 0 to 1.
 */
export type PassRule = CellRule;

/** Options of the gz-bench Vitest plugin. Every field is optional; `GZ_BENCH_*` variables override them. */
export interface GzBenchOptions {
  /**
   * The agent command template, run by the system shell in each case's workspace. `{{prompt}}` is
   * the case prompt and `{{dir}}` the absolute workspace path. Overridden by `GZ_BENCH_CMD`.
   */
  cmd?: string;
  /**
   * Several named agents instead of the one `cmd`: each runs every case (and each trial), as tests
   * under a describe block of its name, and the report compares them.
   * @example agents: { opus: preset('claude-code', { model: 'opus' }), mine: 'my-agent "{{prompt}}"' }
   */
  agents?: Record<string, AgentOption>;
  /**
   * Run only these agents of `agents`: names, or globs such as `claude-*`. Overridden by
   * `GZ_BENCH_AGENTS` (comma-separated). @default every agent
   */
  agentFilter?: string[];
  /**
   * Run only these cases: exact ids (`fix-bug` runs no `fix-bug-2`; `(paren` is an id, never a
   * pattern), or globs such as `fix-*`. Overridden by `GZ_BENCH_CASES` (comma-separated). @default every case
   */
  cases?: string[];
  /** Runs of each (agent, case), each in a fresh workspace. Overridden by `GZ_BENCH_TRIALS`. @default 1 */
  trials?: number;
  /** When a cell of several trials passes (see `PassRule`). Overridden by `GZ_BENCH_PASS_RULE`. @default 'majority' */
  passRule?: PassRule;
  /**
   * Let agents run whose command turns off their own approval prompts
   * (`--dangerously-skip-permissions`, `--yolo`, …); without it the run stops before anything starts.
   * Overridden by `GZ_BENCH_UNSAFE`. @default false
   */
  unsafe?: boolean;
  /** Ends a trial whose agent reports more cost than this, in US dollars (`overBudget`). Overridden by `GZ_BENCH_MAX_COST_USD`. */
  maxCostUsd?: number;
  /** Ends a trial whose agent reports more tokens (input and output) than this (`overBudget`). Overridden by `GZ_BENCH_MAX_TOKENS`. */
  maxTokens?: number;
  /** Ends a trial whose agent reports more model replies (turns) than this (`overBudget`). Overridden by `GZ_BENCH_MAX_TURNS`. */
  maxTurns?: number;
  /**
   * Path of the Markdown scoreboard, relative to the Vitest root (also appended to
   * `$GITHUB_STEP_SUMMARY` when that is set); `false` writes none. Overridden by `GZ_BENCH_MARKDOWN`.
   * @default '.gz-bench/scoreboard.md'
   */
  markdown?: string | false;
  /** Globs of suite files, relative to the Vitest root. Overridden by `GZ_BENCH_INCLUDE` (comma-separated). @default ['**\/*.bench.json'] */
  include?: string | string[];
  /** Seconds that bound every command of every case, instead of each case's `timeoutSec`. Overridden by `GZ_BENCH_TIMEOUT`. */
  timeout?: number;
  /** Keep each case's workspace and report its path. Overridden by `GZ_BENCH_KEEP`. @default false */
  keep?: boolean;
  /** Path of the JSON report, relative to the Vitest root; `false` writes none. Overridden by `GZ_BENCH_REPORT`. @default '.gz-bench/report.json' */
  report?: string | false;
  /**
   * Path of the report as one self-contained HTML page (scoreboard, trials, diffs, trajectories),
   * relative to the Vitest root, written after the JSON report; `false` writes none. Overridden by
   * `GZ_BENCH_HTML`. @default false
   */
  html?: string | false;
  /**
   * Directory of the full output logs of every command (setup, agent, command checks), relative to the
   * Vitest root; `false` writes none. Overridden by `GZ_BENCH_LOGS`. @default '.gz-bench/logs'
   */
  logs?: string | false;
  /**
   * Cases that run at once in the whole run, across all suite files and projects (one limit, not one
   * per file). Agents mostly wait on a model, providers rate-limit, and a real agent CLI takes hundreds
   * of MB, hence a small default; `1` runs cases strictly one at a time. Overridden by `GZ_BENCH_CONCURRENCY`.
   * @default 4
   */
  concurrency?: number;
  /** Print the gz-bench table after Vitest's own output. Overridden by `GZ_BENCH_TABLE`. @default true */
  table?: boolean;
  /**
   * Environment variables of the harness that every case's commands receive, beside each case's own
   * `allowEnv` (API keys the agent needs). Everything else stays out. Overridden by `GZ_BENCH_ALLOW_ENV` (comma-separated).
   */
  allowEnv?: string[];
  /** Copy secret-looking files of fixture repositories into workspaces too. Overridden by `GZ_BENCH_ALLOW_SECRETS`. @default false */
  allowSecrets?: boolean;
  /**
   * Where the commands run: `bwrap` (bubblewrap: host read-only, only the case's files writable, private
   * processes, optional network cut), `none`, or `auto` (bwrap when it works here). Overridden by `GZ_BENCH_SANDBOX`. @default 'auto'
   */
  sandbox?: SandboxMode;
  /**
   * Prove the checks instead of benchmarking: every case runs with the agents `no-op`, whose test
   * passes when the case fails, and `solution` (the case's own `solution` as the agent), whose test
   * passes when the case passes; `cmd` and `agents` are not used. Overridden by `GZ_BENCH_CHECK_SUITE`.
   * @default false
   */
  checkSuite?: boolean;
  /**
   * Images for the `FROM` names of cases' Dockerfiles, name → docker-archive or OCI layout (relative to
   * the Vitest root): no registry is reached. They win over the suites' own `baseImages`.
   */
  baseImages?: Record<string, string>;
  /**
   * Skill arms of the run, e.g. `{ none: [], v1: ['skills/pdf-v1'] }`: skill folders relative to the
   * Vitest root, or `{ skills, scope: 'user' }` to install them in each trial's HOME. Every agent runs
   * every case once per arm, as the column `agent/arm`. They replace the suites' own `arms`.
   */
  arms?: Record<string, Arm>;
  /** The arm every other arm is compared with. @default 'none', else the first arm */
  baselineArm?: string;
  /**
   * What builds cases' Dockerfiles and holds their named images: `docker`, `podman`, `bwrap` (gz-bench's
   * own daemonless builder), or `auto` (Docker, then Podman, where one works, else bwrap). Trials run in
   * gz-bench's bwrap container over the image under every engine. Overridden by `GZ_BENCH_ENGINE`. @default 'auto'
   */
  engine?: EngineMode;
  /**
   * Path of an earlier gz-bench report, relative to the Vitest root: run again only the trials it
   * gives no passing result (failed, errored, not run, or absent), keep its passing rows, and write
   * one complete report of both. Overridden by `GZ_BENCH_ONLY_FAILED`.
   */
  onlyFailed?: string;
  /**
   * Times to run a trial again when it ended in an agent or harness error (a rate limit, a crash),
   * never after an honest failure; the row records its attempts. Overridden by `GZ_BENCH_RETRY_ERRORS`.
   * @default 0
   */
  retryErrors?: number;
}

/** Plugin options with every default applied and every override resolved. */
export interface ResolvedGzBenchOptions {
  cmd: string | undefined;
  /** The agents that run, in the order given, filtered; empty when the run has the one `cmd`. */
  agents: AgentDefinition[];
  /** The cases that run (ids or globs); undefined: every case. */
  cases: string[] | undefined;
  trials: number;
  passRule: PassRule;
  unsafe: boolean;
  maxCostUsd: number | undefined;
  maxTokens: number | undefined;
  maxTurns: number | undefined;
  markdown: string | false;
  include: string[];
  timeout: number | undefined;
  keep: boolean;
  report: string | false;
  html: string | false;
  logs: string | false;
  concurrency: number;
  table: boolean;
  allowEnv: string[];
  allowSecrets: boolean;
  sandbox: SandboxMode;
  /** The run's base images for Dockerfile environments, by FROM name: absolute archive paths. */
  baseImages: Record<string, string>;
  engine: EngineMode;
  /** The run's arms, replacing the suites' own; folders relative to the Vitest root, or absolute. */
  arms: Record<string, Arm> | undefined;
  baselineArm: string | undefined;
  /** The agent that plays each case's `solution` instead of its command (gz-bench check-suite). */
  solutionAgent: string | undefined;
  /** The earlier report whose passing trials a resumed run keeps (absolute, or relative to the Vitest root). */
  onlyFailed: string | undefined;
  retryErrors: number;
}

/** What the workers need of the options; it crosses to them through Vitest's `provide`. */
export type WorkerOptions = Pick<
  ResolvedGzBenchOptions,
  | 'cmd'
  | 'agents'
  | 'trials'
  | 'passRule'
  | 'maxCostUsd'
  | 'maxTokens'
  | 'maxTurns'
  | 'timeout'
  | 'keep'
  | 'concurrency'
  | 'allowEnv'
  | 'allowSecrets'
  | 'sandbox'
  | 'baseImages'
  | 'engine'
  | 'solutionAgent'
  | 'retryErrors'
> & {
  /**
   * The earlier report's rows by absolute suite file and cell key (`resumeCellKey`), when the run
   * resumes one (`onlyFailed`): each cell runs only the trials they do not give a passing result.
   */
  resume?: Record<string, Record<string, ReportResult[]>>;
  /**
   * Every verifier and solution path of the run's suites (absolute): each case's sandbox shows them
   * empty, so that no agent reads the tests of another case, its own being hidden anyway.
   */
  secretPaths?: string[];
  /** Where the logs go: the absolute logs directory and the Vitest root the report names paths from; or none. */
  logs: { dir: string; root: string } | false;
  /** The run's slot server (node/run-slots.ts); every case takes a slot there before it runs. */
  slots: SlotAddress | undefined;
  /** The run updates baseline files (`vitest run -u`, `gz-bench run --update`): a regression is accepted, not failed. */
  baselineUpdate?: boolean;
  /**
   * Each file's tests start one after another, each once the one before has ended: at concurrency 1
   * with Vitest's `--bail`, so that a failure stops the run before the next case starts.
   */
  oneTestAtATime?: boolean;
  /**
   * The user's own values of the names Vite and Vitest set in workers (null: not set), which the
   * cases' commands get instead of Vite's (node/user-env.ts).
   */
  userEnv?: Record<string, string | null>;
};

/** How workers reach the run's slot server. */
export interface SlotAddress {
  /** A Unix socket path (on Linux in the abstract namespace: it starts with NUL), or a named pipe. */
  path: string;
  /** The run's token, which every request must carry. */
  token: string;
}

/** The key under which the worker options are provided to test workers. */
export const PROVIDE_KEY = 'gzBench';

declare module 'vitest' {
  export interface ProvidedContext {
    gzBench: WorkerOptions;
  }
}
