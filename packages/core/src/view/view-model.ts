import { OUTCOMES } from '../report/model.js';
import { columnName } from '../skills/arm-columns.js';
import type { RowFiles } from './load-files.js';
import { list, num, record, strings, text } from './loose.js';

/** Turns a path a row names into a relative link from the page, or undefined when it cannot link it. */
export type LinkFor = (path: string) => string | undefined;

/** A file the page names: its display path and, when it can, a relative link to it. */
export interface ViewFile {
  path: string;
  href?: string;
}

/**
 * One row, compact, for the grid and the filters: `[case, agent, trial, outcome, durationMs, tags, error]`,
 * indices into `cases`, `agents`, `outcomes` and `tags`; `trial` 0 when the run had one per cell.
 */
export type ViewRow = [number, number, number, number, number, number[], string];

/** What the page's script draws the report from (everything else is in the details, read on a click). */
export interface ViewData {
  kind: 'report';
  title: string;
  meta: { gzBenchVersion?: string; vitestVersion?: string };
  summary: { total: number; passed: number; failed: number; notRun?: number };
  errors: Array<{ file: string; message: string }>;
  /** Column names; `[""]` for a run of the single `cmd`. */
  agents: string[];
  /** `[file, suite, id]` of each case. */
  cases: Array<[string, string, string]>;
  outcomes: string[];
  tags: string[];
  rows: ViewRow[];
  scoreboard?: unknown;
  baseline?: unknown;
  sweep?: unknown;
}

/** The longest first-failure text a compact row carries (the whole one is in its details). */
const ROW_ERROR = 300;

/** Builds the page's data and each row's details from a report of any version (fields may be missing or wrong). */
export function buildViewData(
  report: unknown,
  files: ReadonlyMap<number, RowFiles>,
  linkFor: LinkFor,
  title = 'gz-bench report',
): { data: ViewData; details: unknown[] } {
  const root = record(report) ?? {};
  const rawRows = list(root.results);
  const agents = new Index();
  const cases = new Index();
  const caseList: Array<[string, string, string]> = [];
  const tags = new Index();
  const outcomes = new Index();
  for (const outcome of OUTCOMES) outcomes.of(outcome);
  // A column is an agent, an arm, or `agent/arm`, as the scoreboard names it.
  const columnOf = (row: Record<string, unknown>) =>
    columnName({ agentName: text(row.agentName, 256), arm: text(row.arm, 64) }) ?? '';
  const anyAgent = rawRows.some((row) => columnOf(record(row) ?? {}) !== '');
  const rows: ViewRow[] = [];
  const details: unknown[] = [];
  rawRows.forEach((raw, index) => {
    const row = record(raw) ?? {};
    const file = text(row.file, 1024) ?? '';
    const suite = text(row.suite, 1024) ?? '';
    const id = text(row.id, 1024) ?? '';
    const caseKey = JSON.stringify([file, suite, id]);
    const caseIndex = cases.of(caseKey);
    if (caseIndex === caseList.length) caseList.push([file, suite, id]);
    const agentName = anyAgent ? columnOf(row) : '';
    const outcome = outcomeOf(row);
    rows.push([
      caseIndex,
      agents.of(agentName),
      num(row.trial) ?? 0,
      outcomes.of(outcome),
      num(row.durationMs) ?? 0,
      strings(row.tags, 50, 200).map((tag) => tags.of(tag)),
      text(row.error, ROW_ERROR) ?? '',
    ]);
    details.push(rowDetails(row, outcome, files.get(index) ?? {}, linkFor));
  });
  const summary = record(root.summary) ?? {};
  const meta = record(root.meta) ?? {};
  const data: ViewData = {
    kind: 'report',
    title,
    meta: dropEmpty({ gzBenchVersion: text(meta.gzBenchVersion, 100), vitestVersion: text(meta.vitestVersion, 100) }),
    summary: dropEmpty({
      total: num(summary.total) ?? rows.length,
      passed: num(summary.passed) ?? rawRows.filter((row) => record(row)?.passed === true).length,
      failed: num(summary.failed) ?? rawRows.filter((row) => record(row)?.passed !== true).length,
      notRun: num(summary.notRun),
    }),
    errors: list(root.errors)
      .slice(0, 500)
      .map((each) => ({ file: text(record(each)?.file, 1024) ?? '', message: text(record(each)?.message) ?? '' })),
    agents: agents.values.length === 0 ? [''] : agents.values,
    cases: caseList,
    outcomes: outcomes.values,
    tags: tags.values,
    rows,
  };
  const scoreboard = scoreboardOf(root.scoreboard, cases, agents);
  if (scoreboard !== undefined) data.scoreboard = scoreboard;
  if (record(root.baseline) !== undefined) data.baseline = bounded(root.baseline);
  if (Array.isArray(root.sweep)) data.sweep = bounded(root.sweep.slice(0, 2000));
  return { data, details };
}

/** How an old row without `outcome` ended, read from what it has. */
function outcomeOf(row: Record<string, unknown>): string {
  const written = text(row.outcome, 40);
  if (written !== undefined && written !== '') return written;
  if (row.passed === true) return 'passed';
  if (row.notRun === true) return 'notRun';
  if (row.failedStep === 'setup' || row.failedStep === 'harness') return 'harnessError';
  if (row.failedStep === 'tamper') return 'tampered';
  if (record(row.agent)?.timedOut === true) return 'timedOut';
  if (row.failedStep === 'agent') return 'agentError';
  return 'failed';
}

function rowDetails(row: Record<string, unknown>, outcome: string, files: RowFiles, linkFor: LinkFor): unknown {
  const fileLink = (path: unknown): ViewFile | undefined => {
    const shown = text(path, 2048);
    if (shown === undefined || shown === '') return undefined;
    return dropEmpty({ path: shown, href: linkFor(shown) });
  };
  const agent = record(row.agent);
  const usage = record(agent?.usage);
  const changes = record(row.changes);
  const trajectory = record(row.trajectory);
  const baseline = record(row.baseline);
  return dropEmpty({
    outcome,
    error: text(row.error, 16 * 1024),
    failedStep: text(row.failedStep, 40),
    durationMs: num(row.durationMs),
    attempts: num(row.attempts),
    retried: list(row.retriedErrors)
      .slice(0, 20)
      .map((each) => dropEmpty({ outcome: text(record(each)?.outcome, 40), error: text(record(each)?.error) })),
    tampered: strings(row.tampered),
    warnings: strings(row.warnings, 100, 4096),
    sandbox: text(row.sandbox, 40),
    workspace: text(row.workspace, 2048),
    tags: strings(row.tags, 50, 200),
    skills: list(row.skills)
      .slice(0, 50)
      .map((each) => {
        const skill = record(each) ?? {};
        return dropEmpty({
          name: text(skill.name, 64),
          advertised: typeof skill.advertised === 'boolean' ? skill.advertised : undefined,
          used: typeof skill.used === 'boolean' ? skill.used : undefined,
          step: num(skill.step),
          route: text(skill.route, 20),
          tool: text(skill.tool, 100),
          edits: strings(skill.edits, 100, 1024),
        });
      }),
    meta: record(row.meta) === undefined ? undefined : text(JSON.stringify(row.meta), 4096),
    setupLogs: list(row.setupLogs)
      .slice(0, 100)
      .map(fileLink)
      .filter((each) => each !== undefined),
    agent:
      agent === undefined
        ? undefined
        : dropEmpty({
            exitCode: num(agent.exitCode) ?? null,
            signal: text(agent.signal, 40),
            timedOut: agent.timedOut === true ? true : undefined,
            durationMs: num(agent.durationMs),
            outputBytes: num(agent.outputBytes),
            tail: text(agent.outputTail, 16 * 1024),
            log: fileLink(agent.log),
            usage:
              usage === undefined
                ? undefined
                : dropEmpty({
                    inputTokens: num(usage.inputTokens),
                    outputTokens: num(usage.outputTokens),
                    cachedInputTokens: num(usage.cachedInputTokens),
                    cacheWriteTokens: num(usage.cacheWriteTokens),
                    costUsd: num(usage.costUsd),
                    estimate: usage.costSource === 'agent' ? true : undefined,
                    model: text(usage.model, 200),
                    turns: num(usage.turns),
                    toolCalls: num(usage.toolCalls),
                  }),
          }),
    checks: list(row.checkResults)
      .slice(0, 500)
      .map((raw) => {
        const check = record(raw) ?? {};
        const fields: Array<[string, string]> = [];
        for (const [key, value] of Object.entries(check)) {
          if (CHECK_OWN_FIELDS.has(key)) continue;
          const shown = typeof value === 'string' ? text(value, 1024) : JSON.stringify(value);
          if (shown !== undefined) fields.push([text(key, 100) ?? '', text(shown, 1024) ?? '']);
          if (fields.length >= 20) break;
        }
        return dropEmpty({
          kind: text(check.kind, 100) ?? '?',
          passed: check.passed === true,
          skipped: check.skipped === true ? true : undefined,
          fields,
          message: text(check.message, 16 * 1024),
          exitCode: num(check.exitCode),
          timedOut: check.timedOut === true ? true : undefined,
          tail: text(check.outputTail, 16 * 1024),
          log: fileLink(check.log),
        });
      }),
    changes:
      changes === undefined
        ? undefined
        : dropEmpty({
            added: num(changes.added) ?? 0,
            modified: num(changes.modified) ?? 0,
            deleted: num(changes.deleted) ?? 0,
            linesAdded: num(changes.linesAdded) ?? 0,
            linesRemoved: num(changes.linesRemoved) ?? 0,
            files: list(changes.files)
              .slice(0, 1000)
              .map((raw) => {
                const file = record(raw) ?? {};
                return dropEmpty({
                  path: text(file.path, 1024) ?? '',
                  status: text(file.status, 20) ?? '',
                  add: num(file.linesAdded),
                  del: num(file.linesRemoved),
                  binary: file.binary === true ? true : undefined,
                  tooLarge: file.tooLarge === true ? true : undefined,
                  mode: text(file.modeChange, 40),
                  symlink: file.symlink === true ? true : undefined,
                });
              }),
            unlisted: num(changes.unlisted),
            truncated: changes.truncated === true ? true : undefined,
            diffBytes: num(changes.diffBytes),
            file: fileLink(changes.file),
            excerpt: files.diff,
          }),
    trajectory:
      trajectory === undefined
        ? undefined
        : dropEmpty({
            format: text(trajectory.format, 100),
            steps: num(trajectory.steps),
            toolCalls: num(trajectory.toolCalls),
            truncated: trajectory.truncated === true ? true : undefined,
            file: fileLink(trajectory.file),
            excerpt: files.trajectory,
          }),
    family: record(row.family) === undefined ? undefined : text(JSON.stringify(row.family, null, 2), 8192),
    baseline:
      baseline === undefined
        ? undefined
        : dropEmpty({
            verdict: text(baseline.verdict, 40),
            passes: num(baseline.passes),
            trials: num(baseline.trials),
            p: num(baseline.p),
          }),
  });
}

/** Fields of a check result the page shows in their own places, not in its list of fields. */
const CHECK_OWN_FIELDS = new Set(['kind', 'passed', 'skipped', 'message', 'outputTail', 'log', 'exitCode', 'timedOut']);

/** The scoreboard's agents and verdict as they are (the page reads them loosely), its cells as `[case, agent, passed]`. */
function scoreboardOf(value: unknown, cases: Index, agents: Index): unknown {
  const board = record(value);
  if (board === undefined) return undefined;
  const cells: Array<[number, number, number]> = [];
  for (const raw of list(board.cells)) {
    const cell = record(raw);
    if (cell === undefined) continue;
    const caseIndex = cases.find(JSON.stringify([text(cell.file, 1024), text(cell.suite, 1024), text(cell.id, 1024)]));
    const agentIndex = agents.find(text(cell.agent, 256) ?? '');
    if (caseIndex !== undefined && agentIndex !== undefined)
      cells.push([caseIndex, agentIndex, cell.passed === true ? 1 : 0]);
  }
  return {
    rule: typeof board.rule === 'number' || typeof board.rule === 'string' ? board.rule : undefined,
    maxTrials: num(board.maxTrials),
    agents: bounded(list(board.agents).slice(0, 500)),
    verdict: bounded(board.verdict),
    arms: bounded(list(board.arms).slice(0, 500)),
    cells,
  };
}

/** A part of the report passed through with every string cut (it is drawn field by field, as text). */
function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return text(value, 4096);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (depth > 8) return undefined;
  if (Array.isArray(value)) return value.slice(0, 5000).map((each) => bounded(each, depth + 1));
  const fields = record(value);
  if (fields === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, each] of Object.entries(fields).slice(0, 200)) out[key] = bounded(each, depth + 1);
  return out;
}

/** Distinct strings in first-seen order, each with its index. */
class Index {
  readonly values: string[] = [];
  private readonly at = new Map<string, number>();
  of(value: string): number {
    let index = this.at.get(value);
    if (index === undefined) {
      index = this.values.length;
      this.values.push(value);
      this.at.set(value, index);
    }
    return index;
  }
  find(value: string): number | undefined {
    return this.at.get(value);
  }
}

function dropEmpty<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) {
    const each = value[key];
    if (each === undefined || (Array.isArray(each) && each.length === 0)) delete value[key];
  }
  return value;
}
