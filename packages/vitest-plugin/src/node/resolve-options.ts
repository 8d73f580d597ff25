import {
  ArmsSchema,
  allowEnvProblem,
  assertValidTemplate,
  CellRuleError,
  type EngineMode,
  isEngineMode,
  isSandboxMode,
  MAX_TIMEOUT_SEC,
  NO_OP_COMMAND,
  ORACLE_AGENTS,
  parseCellRule,
  type SandboxMode,
  TemplateError,
} from '@gz-bench/core';
import type { GzBenchOptions, PassRule, ResolvedGzBenchOptions } from '../shared/options.js';
import { OptionsError } from './options-error.js';
import { assertSafeAgents, resolveAgents } from './resolve-agents.js';

export { OptionsError } from './options-error.js';

/**
 * Cases in flight at once unless told otherwise: agents mostly wait on a remote model, so a few at
 * once already pay, while providers rate-limit and each real agent CLI takes hundreds of MB.
 */
export const DEFAULT_CONCURRENCY = 4;

/** Trials beyond this are a typo, not a benchmark: each is a whole run of an agent. */
const MAX_TRIALS = 1000;

const DEFAULTS: Omit<ResolvedGzBenchOptions, 'agents'> = {
  cmd: undefined,
  cases: undefined,
  trials: 1,
  passRule: 'majority',
  unsafe: false,
  maxCostUsd: undefined,
  maxTokens: undefined,
  maxTurns: undefined,
  markdown: '.gz-bench/scoreboard.md',
  include: ['**/*.bench.json'],
  timeout: undefined,
  keep: false,
  report: '.gz-bench/report.json',
  html: false,
  logs: '.gz-bench/logs',
  concurrency: DEFAULT_CONCURRENCY,
  table: true,
  allowEnv: [],
  allowSecrets: false,
  sandbox: 'auto',
  baseImages: {},
  engine: 'auto',
  arms: undefined,
  baselineArm: undefined,
  // Set by gz-bench check-suite only.
  solutionAgent: undefined,
  onlyFailed: undefined,
  retryErrors: 0,
};

/** More retries than this would hide a broken agent behind a lucky run, and cost as much as trials. */
const MAX_RETRY_ERRORS = 10;

/** Applies defaults, then `GZ_BENCH_*` overrides from `env`, and validates the result. Never mutates `options`. */
export function resolveOptions(
  options: GzBenchOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedGzBenchOptions {
  const fromEnv = optionsFromEnv(env);
  const { agents: agentOptions, agentFilter, checkSuite, ...rest } = { ...withoutUndefined(options), ...fromEnv };
  const merged = { ...DEFAULTS, ...rest };
  const include = typeof merged.include === 'string' ? [merged.include] : [...merged.include];
  if (include.length === 0 || include.some((glob) => glob.trim() === '')) {
    throw new OptionsError('gz-bench option "include" must name at least one non-empty glob');
  }
  if (merged.cmd !== undefined && merged.cmd.trim() === '') {
    throw new OptionsError('gz-bench option "cmd" must be a non-empty command template');
  }
  if (merged.cmd !== undefined) assertValidCmd(merged.cmd);
  if (merged.timeout !== undefined) positiveNumber('timeout', merged.timeout);
  positiveInteger('concurrency', merged.concurrency);
  positiveInteger('trials', merged.trials);
  if (merged.trials > MAX_TRIALS) {
    throw new OptionsError(`gz-bench option "trials" must be at most ${MAX_TRIALS}, got ${merged.trials}`);
  }
  assertPassRule(merged.passRule);
  if (merged.maxCostUsd !== undefined) positiveAmount('maxCostUsd', merged.maxCostUsd);
  if (merged.maxTokens !== undefined) positiveInteger('maxTokens', merged.maxTokens);
  if (merged.maxTurns !== undefined) positiveInteger('maxTurns', merged.maxTurns);
  if (merged.onlyFailed !== undefined && (typeof merged.onlyFailed !== 'string' || merged.onlyFailed.trim() === '')) {
    throw new OptionsError('gz-bench option "onlyFailed" must be the path of an earlier gz-bench report');
  }
  if (!Number.isSafeInteger(merged.retryErrors) || merged.retryErrors < 0 || merged.retryErrors > MAX_RETRY_ERRORS) {
    throw new OptionsError(
      `gz-bench option "retryErrors" must be a whole number from 0 to ${MAX_RETRY_ERRORS}, got ${String(merged.retryErrors)}`,
    );
  }
  if (merged.cases !== undefined) assertCases(merged.cases);
  if (merged.markdown === '') throw new OptionsError('gz-bench option "markdown" must be a path or false');
  // Proving the checks runs the oracle's two agents instead of any the options name.
  const agents = checkSuite === true ? ORACLE_AGENT_DEFINITIONS : resolveAgents(agentOptions, agentFilter, merged.cmd);
  if (checkSuite !== true) assertSafeAgents(agents, merged.cmd, merged.unsafe);
  if (merged.report === '') throw new OptionsError('gz-bench option "report" must be a path or false');
  if (merged.html !== false && (typeof merged.html !== 'string' || merged.html.trim() === '')) {
    throw new OptionsError('gz-bench option "html" must be a path or false');
  }
  if (merged.logs !== false && (typeof merged.logs !== 'string' || merged.logs.trim() === '')) {
    throw new OptionsError('gz-bench option "logs" must be a directory or false');
  }
  const allowEnv = [...merged.allowEnv];
  // GZ_BENCH_ALLOW_ENV, checked as it is read, replaces the option: what is left here is the option's.
  if (fromEnv.allowEnv === undefined) assertAllowEnv('gz-bench option "allowEnv"', allowEnv);
  if (!isSandboxMode(merged.sandbox)) {
    throw new OptionsError(`gz-bench option "sandbox" must be auto, bwrap or none, got "${String(merged.sandbox)}"`);
  }
  assertBaseImages(merged.baseImages);
  assertArms(merged.arms, merged.baselineArm);
  if (!isEngineMode(merged.engine)) {
    throw new OptionsError(
      `gz-bench option "engine" must be auto, docker, podman or bwrap, got "${String(merged.engine)}"`,
    );
  }
  const resolved = { ...merged, agents, include, allowEnv, baseImages: { ...merged.baseImages } };
  return checkSuite === true
    ? { ...resolved, cmd: undefined, trials: 1, solutionAgent: ORACLE_AGENTS.solution }
    : resolved;
}

function assertArms(arms: unknown, baselineArm: unknown): void {
  if (arms !== undefined) {
    const parsed = ArmsSchema.safeParse(arms);
    const issue = parsed.error?.issues[0];
    if (issue !== undefined) {
      const at = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
      throw new OptionsError(
        `gz-bench option "arms"${at}: ${issue.message}; write arms as { none: [], v1: ['skills/my-skill'] }`,
      );
    }
    if (Object.keys(arms as object).length === 0) throw new OptionsError('gz-bench option "arms" names no arm');
  }
  if (baselineArm === undefined) return;
  if (arms === undefined) throw new OptionsError('gz-bench option "baselineArm" needs "arms" to pick from');
  if (typeof baselineArm !== 'string' || !Object.hasOwn(arms as object, baselineArm)) {
    const names = Object.keys(arms as object).join(', ');
    throw new OptionsError(`gz-bench option "baselineArm" must name one of the arms (${names})`);
  }
}

function assertBaseImages(baseImages: unknown): void {
  const entries = typeof baseImages === 'object' && baseImages !== null ? Object.entries(baseImages) : undefined;
  if (
    entries === undefined ||
    Array.isArray(baseImages) ||
    entries.some(([name, path]) => name.trim() === '' || typeof path !== 'string' || path.trim() === '')
  ) {
    throw new OptionsError(
      'gz-bench option "baseImages" must map FROM names to image archives, e.g. { "python:3.12-slim": "images/python.tar" }',
    );
  }
}

function assertCases(cases: unknown): void {
  if (!Array.isArray(cases) || cases.some((id) => typeof id !== 'string' || id === '')) {
    throw new OptionsError('gz-bench option "cases" (GZ_BENCH_CASES) must list case ids or globs');
  }
}

/** The two agents of `checkSuite`: the no-op, and the one each case's solution plays (see run-trial.ts). */
const ORACLE_AGENT_DEFINITIONS = [
  { name: ORACLE_AGENTS.noOp, cmd: NO_OP_COMMAND },
  { name: ORACLE_AGENTS.solution, cmd: NO_OP_COMMAND },
];

function optionsFromEnv(env: NodeJS.ProcessEnv): GzBenchOptions {
  const options: GzBenchOptions = {};
  const value = (name: string) => {
    const raw = env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const agents = value('GZ_BENCH_AGENTS');
  if (agents !== undefined) options.agentFilter = splitList(agents);
  const cases = value('GZ_BENCH_CASES');
  if (cases !== undefined) options.cases = splitList(cases);
  const trials = value('GZ_BENCH_TRIALS');
  if (trials !== undefined) options.trials = parseNumber('GZ_BENCH_TRIALS', trials);
  const passRule = value('GZ_BENCH_PASS_RULE');
  if (passRule !== undefined) options.passRule = parsePassRule('GZ_BENCH_PASS_RULE', passRule);
  const unsafe = value('GZ_BENCH_UNSAFE');
  if (unsafe !== undefined) options.unsafe = parseBoolean('GZ_BENCH_UNSAFE', unsafe);
  const maxCost = value('GZ_BENCH_MAX_COST_USD');
  if (maxCost !== undefined) options.maxCostUsd = parseNumber('GZ_BENCH_MAX_COST_USD', maxCost);
  const maxTokens = value('GZ_BENCH_MAX_TOKENS');
  if (maxTokens !== undefined) options.maxTokens = parseNumber('GZ_BENCH_MAX_TOKENS', maxTokens);
  const maxTurns = value('GZ_BENCH_MAX_TURNS');
  if (maxTurns !== undefined) options.maxTurns = parseNumber('GZ_BENCH_MAX_TURNS', maxTurns);
  const markdown = value('GZ_BENCH_MARKDOWN');
  if (markdown !== undefined) options.markdown = /^(false|0|off|no)$/i.test(markdown) ? false : markdown;
  const cmd = value('GZ_BENCH_CMD');
  if (cmd !== undefined) options.cmd = cmd;
  const include = value('GZ_BENCH_INCLUDE');
  if (include !== undefined) options.include = include.split(',').map((glob) => glob.trim());
  const timeout = value('GZ_BENCH_TIMEOUT');
  if (timeout !== undefined) options.timeout = parseNumber('GZ_BENCH_TIMEOUT', timeout);
  const keep = value('GZ_BENCH_KEEP');
  if (keep !== undefined) options.keep = parseBoolean('GZ_BENCH_KEEP', keep);
  const report = value('GZ_BENCH_REPORT');
  if (report !== undefined) options.report = /^(false|0|off|no)$/i.test(report) ? false : report;
  const html = value('GZ_BENCH_HTML');
  if (html !== undefined) options.html = /^(false|0|off|no)$/i.test(html) ? false : html;
  const logs = value('GZ_BENCH_LOGS');
  if (logs !== undefined) options.logs = /^(false|0|off|no)$/i.test(logs) ? false : logs;
  const concurrency = value('GZ_BENCH_CONCURRENCY');
  if (concurrency !== undefined) options.concurrency = parseNumber('GZ_BENCH_CONCURRENCY', concurrency);
  const table = value('GZ_BENCH_TABLE');
  if (table !== undefined) options.table = parseBoolean('GZ_BENCH_TABLE', table);
  const allowEnv = value('GZ_BENCH_ALLOW_ENV');
  if (allowEnv !== undefined) {
    // Comma-separated as ever; an empty part (a trailing comma) is no name and no mistake here.
    options.allowEnv = allowEnv
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    assertAllowEnv('GZ_BENCH_ALLOW_ENV', options.allowEnv);
  }
  const allowSecrets = value('GZ_BENCH_ALLOW_SECRETS');
  if (allowSecrets !== undefined) options.allowSecrets = parseBoolean('GZ_BENCH_ALLOW_SECRETS', allowSecrets);
  const checkSuite = value('GZ_BENCH_CHECK_SUITE');
  if (checkSuite !== undefined) options.checkSuite = parseBoolean('GZ_BENCH_CHECK_SUITE', checkSuite);
  const onlyFailed = value('GZ_BENCH_ONLY_FAILED');
  if (onlyFailed !== undefined) options.onlyFailed = onlyFailed;
  const retryErrors = value('GZ_BENCH_RETRY_ERRORS');
  if (retryErrors !== undefined) options.retryErrors = parseNumber('GZ_BENCH_RETRY_ERRORS', retryErrors);
  const sandbox = value('GZ_BENCH_SANDBOX');
  if (sandbox !== undefined) options.sandbox = sandbox as SandboxMode;
  const engine = value('GZ_BENCH_ENGINE');
  if (engine !== undefined) options.engine = engine as EngineMode;
  return options;
}

function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A pass rule as people write it: `majority`, `all`, `any`, a share (`0.6`) or a percentage (`60%`). */
export function parsePassRule(name: string, raw: string): PassRule {
  try {
    return parseCellRule(raw);
  } catch (error) {
    if (error instanceof CellRuleError) throw new OptionsError(`${name}: ${error.message}`);
    throw error;
  }
}

function assertPassRule(rule: unknown): void {
  if (typeof rule === 'string' || typeof rule === 'number') {
    parsePassRule('gz-bench option "passRule"', String(rule));
    return;
  }
  throw new OptionsError(`gz-bench option "passRule" must be a string or a number, got ${JSON.stringify(rule)}`);
}

function positiveAmount(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new OptionsError(`gz-bench option "${name}" must be a positive number, got ${String(value)}`);
  }
}

/** Names, lists and `PREFIX_*` patterns only, and none of the names gz-bench sets itself. */
function assertAllowEnv(source: string, entries: readonly unknown[]): void {
  for (const entry of entries) {
    const problem = typeof entry === 'string' ? allowEnvProblem(entry) : `must list strings, got ${String(entry)}`;
    if (problem !== undefined) throw new OptionsError(`${source}: ${problem}`);
  }
}

function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function parseNumber(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new OptionsError(`${name} must be a number, got "${raw}"`);
  return value;
}

function parseBoolean(name: string, raw: string): boolean {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new OptionsError(`${name} must be true or false, got "${raw}"`);
}

function positiveNumber(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_SEC) {
    throw new OptionsError(
      `gz-bench option "${name}" must be a positive number of seconds up to ${MAX_TIMEOUT_SEC}, got ${String(value)}`,
    );
  }
}

function positiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new OptionsError(`gz-bench option "${name}" must be a positive integer, got ${String(value)}`);
  }
}

/** A template with a placeholder gz-bench does not know stops the run at once, not every case in turn. */
function assertValidCmd(cmd: string): void {
  try {
    assertValidTemplate(cmd);
  } catch (error) {
    if (error instanceof TemplateError) throw new OptionsError(`gz-bench option "cmd": ${error.message}`);
    throw error;
  }
}
