import { OUTCOMES, type Outcome } from '../report/model.js';
import { type CellRule, parseCellRule } from '../stats/cell-rule.js';
import { BASELINE_VERSION, type Baseline, type BaselineCases, type BaselineEntry, setOwn } from './baseline-file.js';

/** A baseline file that cannot be used; its one-line message names the file, where, and the way out. */
export class BaselineError extends Error {
  override readonly name = 'BaselineError';
  readonly code = 'GZ_BENCH_INVALID_BASELINE';
}

const TOP_KEYS = new Set(['$comment', 'gzBenchBaseline', 'passRule', 'cases', 'agents']);

/**
 * Reads a baseline file's text, strictly: a file edited by hand into something gz-bench would judge
 * wrongly (4 passes of 3 trials, an unknown key) is refused, never half-read. `file` names it in errors.
 */
export function parseBaseline(text: string, file: string): Baseline {
  const fail = (where: string, problem: string): never => {
    const at = where === '' ? '' : ` at ${where}`;
    throw new BaselineError(
      `${file}: invalid baseline${at}: ${problem}; fix it, or delete the file and write it anew with vitest run -u (gz-bench run --update)`,
    );
  };
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return fail('', `not JSON (${(error as Error).message})`);
  }
  if (!isRecord(data)) return fail('', 'not a JSON object');
  for (const key of Object.keys(data)) if (!TOP_KEYS.has(key)) fail(JSON.stringify(key), 'unknown key');
  if (data.gzBenchBaseline !== BASELINE_VERSION) {
    fail('gzBenchBaseline', `must be ${BASELINE_VERSION}, got ${JSON.stringify(data.gzBenchBaseline) ?? 'nothing'}`);
  }
  let passRule: CellRule;
  try {
    passRule = parseCellRule(data.passRule as string | number);
  } catch {
    return fail(
      'passRule',
      `must be majority, all, any or a fraction in (0, 1], got ${JSON.stringify(data.passRule) ?? 'nothing'}`,
    );
  }
  const cases = data.cases === undefined ? {} : readCases(data.cases, 'cases', fail);
  const agents: Record<string, BaselineCases> = {};
  if (data.agents !== undefined) {
    if (!isRecord(data.agents)) fail('agents', 'must be an object of agents');
    for (const [name, value] of Object.entries(data.agents as Record<string, unknown>)) {
      setOwn(agents, name, readCases(value, `agents[${JSON.stringify(name)}]`, fail));
    }
  }
  return { passRule, cases, agents };
}

function readCases(value: unknown, where: string, fail: (where: string, problem: string) => never): BaselineCases {
  if (!isRecord(value)) return fail(where, 'must be an object of case ids');
  const cases: BaselineCases = {};
  for (const [id, entry] of Object.entries(value)) {
    setOwn(cases, id, readEntry(entry, `${where}[${JSON.stringify(id)}]`, fail));
  }
  return cases;
}

function readEntry(value: unknown, where: string, fail: (where: string, problem: string) => never): BaselineEntry {
  if (!isRecord(value)) return fail(where, 'must be an object { passes, trials }');
  for (const key of Object.keys(value)) {
    if (key !== 'passes' && key !== 'trials' && key !== 'outcome') fail(`${where}.${key}`, 'unknown key');
  }
  const { passes, trials, outcome } = value;
  if (!isCount(trials) || trials < 1)
    fail(`${where}.trials`, `must be a whole number of at least 1, got ${JSON.stringify(trials) ?? 'nothing'}`);
  if (!isCount(passes)) fail(`${where}.passes`, `must be a whole number, got ${JSON.stringify(passes) ?? 'nothing'}`);
  const entry: BaselineEntry = { passes: passes as number, trials: trials as number };
  if (entry.passes > entry.trials) fail(`${where}.passes`, `${entry.passes} passes of ${entry.trials} trials`);
  if (outcome !== undefined) {
    if (!(OUTCOMES as readonly string[]).includes(outcome as string))
      fail(`${where}.outcome`, `unknown outcome ${JSON.stringify(outcome)}`);
    if ((outcome === 'passed') !== (entry.passes === 1) || entry.trials !== 1) {
      fail(
        `${where}.outcome`,
        `"${String(outcome)}" does not go with ${entry.passes} passes of ${entry.trials} trials`,
      );
    }
    entry.outcome = outcome as Outcome;
  }
  return entry;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
