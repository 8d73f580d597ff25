import type { Usage } from '../../report/model.js';
import type { UsageExtractor } from '../definition.js';
import type { StreamTrajectory } from '../trajectory/builder.js';
import { trajectoryFormat } from '../trajectory/formats.js';
import { BUILTIN_EXTRACTORS } from './builtin-extractors.js';
import { jsonExtractor, jsonlExtractor } from './declared.js';
import { jsonDocuments } from './json-documents.js';
import { forEachJsonLine, forEachLine, readWhole } from './read-output.js';
import type { RecordExtractor, RecordSource } from './reducer.js';
import { REGEX_TIMEOUT_MS, regexUsage } from './regex-extract.js';
import { addFigures, finishUsage, USAGE_FIELDS } from './usage-fields.js';

/** Bounds of one extraction. */
export interface ExtractUsageOptions {
  /**
   * The most bytes read into memory at once: the whole stdout of single-document formats (a longer
   * one yields no usage), one line of JSONL formats (longer lines are skipped), one window of lines
   * for a regular expression.
   */
  maxBytes: number;
  /** How long a user's regular expression may run over one window of output. @default 5000 */
  regexTimeoutMs?: number;
}

/** What an agent's stdout is read for: its usage, its steps, or both. */
export interface AgentOutputReading {
  usage?: UsageExtractor | undefined;
  /** A stream format's name (see TRAJECTORY_FORMAT_NAMES). */
  trajectory?: string | undefined;
}

/** What an agent's stdout said: its usage (undefined when it reports none) and its steps (with a format). */
export interface AgentOutput {
  usage: Usage | undefined;
  stream?: StreamTrajectory;
}

/**
 * Reads an agent's usage from its whole stdout, saved in `stdoutFile` (stdout only: stderr's warnings
 * never break a JSON document). JSONL formats stream line by line in flat memory; single-document
 * formats are parsed whole; lines that are not JSON, before or after, are skipped. Resolves to
 * undefined when the output reports nothing. Throws only for a file that cannot be read and for a
 * user's regular expression that runs out of time (`UsageRegexTimeoutError`).
 */
export async function extractUsage(
  stdoutFile: string,
  extractor: UsageExtractor,
  options: ExtractUsageOptions,
): Promise<Usage | undefined> {
  return (await readAgentOutput(stdoutFile, { usage: extractor }, options)).usage;
}

/**
 * Reads an agent's usage and its steps from its whole stdout in one pass over its records: each
 * record goes to the usage reducer and to the trajectory format's builder alike (one reader per
 * CLI). Only a usage read another way (a regular expression, a declared path of another source)
 * costs a pass of its own. Throws as `extractUsage` does, and for a format that is none.
 */
export async function readAgentOutput(
  stdoutFile: string,
  reading: AgentOutputReading,
  options: ExtractUsageOptions,
): Promise<AgentOutput> {
  const { usage: extractor } = reading;
  const format = reading.trajectory === undefined ? undefined : trajectoryFormat(reading.trajectory);
  if (reading.trajectory !== undefined && format === undefined) {
    throw new Error(`unknown trajectory format "${reading.trajectory}"`);
  }
  const passes = new Map<RecordSource, Array<(record: unknown) => void>>();
  const feed = (source: RecordSource, add: (record: unknown) => void) => {
    passes.set(source, [...(passes.get(source) ?? []), add]);
  };
  const reducer = extractor === undefined || 'regex' in extractor ? undefined : recordExtractor(extractor);
  const usageReducer = reducer?.reducer();
  if (reducer && usageReducer) feed(reducer.source, (record) => usageReducer.add(record));
  const builder = format?.trajectory();
  if (format && builder) feed(format.source, (record) => builder.add(record));
  for (const [source, sinks] of passes) {
    await forEachRecord(stdoutFile, source, options.maxBytes, (record) => {
      for (const add of sinks) add(record);
    });
  }
  let usage: Usage | undefined;
  if (extractor !== undefined && 'regex' in extractor) {
    usage = await extractWithRegex(stdoutFile, extractor, options.maxBytes, options.regexTimeoutMs ?? REGEX_TIMEOUT_MS);
  } else if (usageReducer) {
    usage = finishUsage(usageReducer.finish() ?? {});
  }
  return { usage, ...(builder && { stream: builder.finish() }) };
}

/** How a format of records (built-in or declared) is read: its source and its usage reducer. */
export function recordExtractor(extractor: Exclude<UsageExtractor, { regex: string }>): RecordExtractor {
  if ('json' in extractor) return jsonExtractor(extractor.json);
  if ('jsonl' in extractor) return jsonlExtractor(extractor.jsonl, extractor.sum === true);
  const builtin = Object.hasOwn(BUILTIN_EXTRACTORS, extractor.builtin)
    ? BUILTIN_EXTRACTORS[extractor.builtin]
    : undefined;
  // parseUsageExtractor refuses unknown names; a definition built in code may still carry one.
  if (!builtin) throw new Error(`unknown built-in usage extractor "${extractor.builtin}"`);
  return builtin;
}

/** Every record of the file from its source: each JSON line, or each JSON document of the whole. */
async function forEachRecord(
  file: string,
  source: RecordSource,
  maxBytes: number,
  onRecord: (record: unknown) => void,
): Promise<void> {
  if (source === 'lines') {
    await forEachJsonLine(file, maxBytes, onRecord);
    return;
  }
  const text = await readWhole(file, maxBytes);
  for (const document of text === undefined ? [] : jsonDocuments(text)) onRecord(document);
}

/**
 * A regular expression sees the whole stdout when it fits in `maxBytes`, otherwise consecutive
 * windows of whole lines of up to `maxBytes` each (a match cannot span two windows).
 */
async function extractWithRegex(
  file: string,
  extractor: { regex: string; flags?: string; sum?: boolean },
  maxBytes: number,
  timeoutMs: number,
): Promise<Usage | undefined> {
  const sum = extractor.sum === true;
  const flags = extractor.flags ?? '';
  const match = (text: string) => regexUsage(text, extractor.regex, flags, sum, timeoutMs);
  const whole = await readWhole(file, maxBytes);
  if (whole !== undefined) return finishUsage(match(whole));
  let usage: Usage = {};
  let window: string[] = [];
  let windowBytes = 0;
  const flush = () => {
    if (window.length === 0) return;
    usage = merge(usage, match(window.join('\n')), sum);
    window = [];
    windowBytes = 0;
  };
  await forEachLine(file, maxBytes, (line) => {
    const bytes = Buffer.byteLength(line) + 1;
    if (windowBytes + bytes > maxBytes) flush();
    window.push(line);
    windowBytes += bytes;
  });
  flush();
  return finishUsage(usage);
}

/** Combines the usage of two windows: added up with `sum`, otherwise the later window's figures win. */
function merge(earlier: Usage, later: Usage, sum: boolean): Usage {
  const merged: Usage = { ...earlier };
  for (const field of USAGE_FIELDS) {
    const value = later[field];
    if (value === undefined) continue;
    if (sum && field !== 'model' && typeof value === 'number') {
      merged[field] = addFigures(earlier[field] as number | undefined, value);
    } else Object.assign(merged, { [field]: value });
  }
  return merged;
}
