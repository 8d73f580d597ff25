import { cut, list, num, record, text } from './loose.js';

/** One tool call as the page shows it: its name, its arguments (a shell command as a command) and its result. */
export interface ViewToolCall {
  name: string;
  /** The shell command it ran, when its arguments hold one. */
  command?: string;
  /** The arguments as indented JSON, bounded. */
  args: string;
  /** One line that says what the call did: the file it touched, else its arguments as compact JSON. */
  brief: string;
  result?: string;
  isError?: true;
}

/** One step of a trajectory as the page shows it. */
export interface ViewStep {
  id: number;
  source: string;
  time?: string;
  model?: string;
  text: string;
  reasoning?: string;
  calls: ViewToolCall[];
  /** Results that answer no call of the step. */
  results: string[];
  tokens?: { in?: number; out?: number; cached?: number; cost?: number };
}

/** The bounded excerpt of a `trajectory.json` that the page embeds. */
export interface ViewTrajectory {
  agent?: string;
  model?: string;
  steps: ViewStep[];
  /** Steps left out to keep the excerpt within its bound. */
  omittedSteps: number;
  total?: { in?: number; out?: number; cached?: number; cost?: number; steps?: number };
}

/** Longest text of one field (a message, arguments, a result) in an excerpt. */
const MAX_FIELD = 8 * 1024;

/**
 * Reads a trajectory (ATIF, see agents/trajectory/types.ts) that may be anything: each field is taken
 * only when it has its type, each text is cut at 8 KiB, and steps past `maxChars` characters in all
 * are left out and counted. Undefined when it is not a trajectory at all.
 */
export function trajectoryExcerpt(data: unknown, maxChars: number): ViewTrajectory | undefined {
  const root = record(data);
  if (root === undefined || !Array.isArray(root.steps)) return undefined;
  const agent = record(root.agent);
  const steps: ViewStep[] = [];
  let used = 0;
  let omittedSteps = 0;
  for (const raw of root.steps) {
    const step = readStep(raw, steps.length + 1);
    if (step === undefined) continue;
    const size = JSON.stringify(step).length;
    if (omittedSteps > 0 || used + size > maxChars) {
      omittedSteps += 1;
      continue;
    }
    used += size;
    steps.push(step);
  }
  const final = record(root.final_metrics);
  const total =
    final === undefined
      ? undefined
      : dropEmpty({
          in: num(final.total_prompt_tokens),
          out: num(final.total_completion_tokens),
          cached: num(final.total_cached_tokens),
          cost: num(final.total_cost_usd),
          steps: num(final.total_steps),
        });
  return dropEmpty({
    agent: text(agent?.name, 200),
    model: text(agent?.model_name, 200),
    steps,
    omittedSteps,
    total,
  }) as ViewTrajectory;
}

function readStep(raw: unknown, fallbackId: number): ViewStep | undefined {
  const step = record(raw);
  if (step === undefined) return undefined;
  const results = list(record(step.observation)?.results).map(record);
  const used = new Set<number>();
  const calls: ViewToolCall[] = [];
  for (const rawCall of list(step.tool_calls)) {
    const call = record(rawCall);
    if (call === undefined) continue;
    const id = call.tool_call_id;
    const index = results.findIndex(
      (result, at) => !used.has(at) && result !== undefined && result.source_call_id === id,
    );
    if (index >= 0) used.add(index);
    const result = index >= 0 ? results[index] : undefined;
    calls.push(
      dropEmpty({
        name: text(call.function_name, 200) ?? '(unnamed tool)',
        command: shellCommand(call.arguments),
        args: cut(stringify(call.arguments), MAX_FIELD),
        brief: briefOf(call.arguments),
        result: result === undefined ? undefined : text(result.content, MAX_FIELD),
        isError: result !== undefined && resultFailed(step, index) ? true : undefined,
      }) as ViewToolCall,
    );
  }
  const loose = results
    .filter((result, at) => !used.has(at) && result !== undefined)
    .map((result) => text(result?.content, MAX_FIELD))
    .filter((content): content is string => content !== undefined);
  const metrics = record(step.metrics);
  const tokens =
    metrics === undefined
      ? undefined
      : dropEmpty({
          in: num(metrics.prompt_tokens),
          out: num(metrics.completion_tokens),
          cached: num(metrics.cached_tokens),
          cost: num(metrics.cost_usd),
        });
  return dropEmpty({
    id: num(step.step_id) ?? fallbackId,
    source: text(step.source, 40) ?? 'agent',
    time: text(step.timestamp, 64),
    model: text(step.model_name, 200),
    text: text(step.message, MAX_FIELD) ?? '',
    reasoning: text(step.reasoning_content, MAX_FIELD),
    calls,
    results: loose,
    tokens: tokens !== undefined && Object.keys(tokens).length > 0 ? tokens : undefined,
  }) as ViewStep;
}

/**
 * The shell command in a tool call's arguments, as a person would type it: `command` or `cmd` as a
 * string, or as an argv (`["bash", "-lc", "ls"]` reads `ls`, others are joined by spaces).
 */
export function shellCommand(args: unknown): string | undefined {
  const fields = record(args);
  if (fields === undefined) return undefined;
  for (const key of ['command', 'cmd']) {
    const value = fields[key];
    if (typeof value === 'string') return cut(value, MAX_FIELD);
    if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string')) {
      const argv = value as string[];
      const shell = argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0] ?? '') && /^-l?c$/.test(argv[1] ?? '');
      return cut(shell ? (argv[2] ?? '') : argv.join(' '), MAX_FIELD);
    }
  }
  return undefined;
}

/**
 * Whether the step marks its result at `index` as a failure: in its `extra.results` (ATIF's result has
 * no `extra` of its own), or, from writers that put it there anyway, in the result's own `extra`.
 */
function resultFailed(step: Record<string, unknown>, index: number): boolean {
  const marks = list(record(step.extra)?.results).map(record);
  if (marks.some((mark) => mark !== undefined && mark.index === index && mark.is_error === true)) return true;
  const result = record(list(record(step.observation)?.results)[index]);
  return record(result?.extra)?.is_error === true;
}

function briefOf(args: unknown): string {
  const fields = record(args);
  const path = ['file_path', 'path', 'filePath', 'absolute_path', 'file', 'pattern', 'query', 'url']
    .map((key) => fields?.[key])
    .find((value): value is string => typeof value === 'string');
  const line = path ?? JSON.stringify(args) ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

function stringify(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return '(arguments that cannot be shown)';
  }
}

/** The object without its undefined fields, so the embedded JSON stays small. */
function dropEmpty<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}
